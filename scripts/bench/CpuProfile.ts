/**
 * Reading a V8 CPU profile (what `node --cpu-prof` writes and `Profiler.stop` answers): self time
 * per function, time per area of the code (self, and inclusive: a sample counts once for every area
 * on its stack), as plain text. Enough to say what dominates a route without opening DevTools.
 */

export interface CallFrame {
  readonly functionName: string
  readonly url: string
  readonly lineNumber: number
  readonly columnNumber: number
}

export interface ProfileNode {
  readonly id: number
  readonly callFrame: CallFrame
  readonly children?: ReadonlyArray<number>
}

export interface Profile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly startTime: number
  readonly endTime: number
  readonly samples?: ReadonlyArray<number>
  readonly timeDeltas?: ReadonlyArray<number>
}

/** Where a frame's code lives, coarse enough to compare: "effect: Schema", "decimal.js", "node: http". */
export const areaOf = (frame: CallFrame): string => {
  const { functionName, url } = frame
  if (url === "") {
    if (functionName === "(garbage collector)") return "(gc)"
    if (functionName === "(idle)" || functionName === "(program)" || functionName === "(root)") return functionName
    return "native/builtin"
  }
  if (url.startsWith("node:")) {
    const module = url.slice("node:".length).replace(/^internal\//, "")
    return `node: ${module.split("/")[0]!.replace(/\.js$/, "")}`
  }
  const effect = /\/node_modules\/effect\/dist\/(.+)\.js$/.exec(url)
  if (effect !== undefined && effect !== null) return `effect: ${effectArea(effect[1]!)}`
  // pnpm's layout nests a package as node_modules/.pnpm/<id>/node_modules/<name>: take the last one.
  const pkg = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)
  if (pkg !== null) return pkg[1]!
  const own = /\/packages\/([^/]+)\/src\/(.+)\.ts$/.exec(url)
  if (own !== null) return `swapdesk ${own[1]}: ${own[2]}`
  const script = /\/scripts\/(.+)\.ts$/.exec(url)
  if (script !== null) return `scripts: ${script[1]}`
  return url
}

/** Effect's modules grouped by what they do for a request. */
const effectArea = (path: string): string => {
  const file = path.split("/").pop()!
  if (
    /^(internal\/)?schema\/|^Schema|^SchemaAST|^SchemaParser|^SchemaIssue|^SchemaGetter|^SchemaTransformation/.test(
      path
    )
  ) {
    return "Schema"
  }
  if (path.startsWith("unstable/httpapi/")) return `HttpApi (${file})`
  if (path.startsWith("unstable/http/")) return `http (${file})`
  if (/^internal\/(effect|core|fiber|runtime)/.test(path) || /^(Effect|Fiber|Exit|Cause)$/.test(path)) return "runtime"
  if (/^(internal\/)?(tracer|Tracer)/.test(path)) return "tracer"
  return path
}

export const frameName = (frame: CallFrame): string => {
  const name = frame.functionName === "" ? "(anonymous)" : frame.functionName
  if (frame.url === "") return name
  const short = frame.url.replace(
    /^file:\/\/.*?\/(node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?|packages\/|scripts\/)/,
    ""
  )
  return `${name} ${short}:${frame.lineNumber + 1}`
}

export interface Summary {
  readonly totalMs: number
  /** Time in frames that are not idle. */
  readonly busyMs: number
  /** Self time per function, largest first. */
  readonly selfByFrame: ReadonlyArray<readonly [string, number]>
  /** Self time per area, largest first. */
  readonly selfByArea: ReadonlyArray<readonly [string, number]>
  /** Inclusive time per area (each sample counted once per area on its stack), largest first. */
  readonly inclusiveByArea: ReadonlyArray<readonly [string, number]>
  /** Inclusive time per function, largest first. */
  readonly inclusiveByFrame: ReadonlyArray<readonly [string, number]>
}

const IDLE = new Set(["(idle)", "(program)", "(root)"])

const sortedEntries = (map: Map<string, number>) => [...map.entries()].sort((a, b) => b[1] - a[1])

const toMs = (entries: Array<[string, number]>) => entries.map(([key, us]) => [key, us / 1_000] as const)

const add = (map: Map<string, number>, key: string, value: number) => map.set(key, (map.get(key) ?? 0) + value)

export const summarise = (profile: Profile): Summary => {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const samples = profile.samples ?? []
  const deltas = profile.timeDeltas ?? []
  const selfByFrame = new Map<string, number>()
  const selfByArea = new Map<string, number>()
  const inclusiveByArea = new Map<string, number>()
  const inclusiveByFrame = new Map<string, number>()
  let busyUs = 0
  // A sample's delta is the time until the next sample: attribute each delta to the sample before it.
  for (let i = 0; i < samples.length; i++) {
    const us = deltas[i + 1] ?? 0
    const leaf = byId.get(samples[i]!)!
    if (IDLE.has(leaf.callFrame.functionName)) continue
    busyUs += us
    add(selfByFrame, frameName(leaf.callFrame), us)
    add(selfByArea, areaOf(leaf.callFrame), us)
    const areas = new Set<string>()
    const frames = new Set<string>()
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)!.callFrame
      if (IDLE.has(frame.functionName)) continue
      areas.add(areaOf(frame))
      frames.add(frameName(frame))
    }
    for (const area of areas) add(inclusiveByArea, area, us)
    for (const frame of frames) add(inclusiveByFrame, frame, us)
  }
  return {
    totalMs: (profile.endTime - profile.startTime) / 1_000,
    busyMs: busyUs / 1_000,
    selfByFrame: toMs(sortedEntries(selfByFrame)),
    selfByArea: toMs(sortedEntries(selfByArea)),
    inclusiveByArea: toMs(sortedEntries(inclusiveByArea)),
    inclusiveByFrame: toMs(sortedEntries(inclusiveByFrame))
  }
}

/** The summary as text: the top `limit` entries of each view, with their share of the busy time. */
export const formatSummary = (title: string, summary: Summary, limit = 25): string => {
  const share = (ms: number) => `${((100 * ms) / summary.busyMs).toFixed(1).padStart(5)}%`
  const section = (heading: string, entries: ReadonlyArray<readonly [string, number]>) => [
    `  ${heading}`,
    ...entries.slice(0, limit).map(([key, ms]) => `    ${share(ms)}  ${ms.toFixed(0).padStart(6)} ms  ${key}`)
  ]
  return [
    `${title}: ${summary.busyMs.toFixed(0)} ms busy of ${summary.totalMs.toFixed(0)} ms profiled`,
    ...section("self time by function", summary.selfByFrame),
    ...section("self time by area", summary.selfByArea),
    ...section("inclusive time by area", summary.inclusiveByArea),
    ...section("inclusive time by function", summary.inclusiveByFrame)
  ].join("\n")
}

if (import.meta.main) {
  const { readFileSync } = await import("node:fs")
  const files = process.argv.slice(2)
  if (files.length === 0) {
    console.error("usage: node scripts/bench/CpuProfile.ts <file.cpuprofile>...")
    process.exit(2)
  }
  for (const file of files) {
    console.log(formatSummary(file, summarise(JSON.parse(readFileSync(file, "utf8")) as Profile)))
  }
}
