/**
 * Two checkouts of this repository against each other, over real sockets, under the same load:
 *
 *   node scripts/bench/trees.ts <tree A> <tree B> [rounds] [seconds]
 *
 * Starts each tree's swapdesk server as that tree's `pnpm bench http` does (its own
 * `scripts/bench/serverProcess.ts api`, a process each), creates a trade on each, warms both up
 * for 8 s per route, then loads market data and the trade read on both servers at the same time
 * (5 connections each, pipelining 1) for `seconds`, `rounds` times (8 and 3 unless given). Loading
 * both at once puts them under the same contention from whatever else runs on the machine, so the
 * ratio of their CPU per request within a round moves far less than either figure alone; the median
 * of the per-round ratios B/A is printed. Run it once with the same tree on both sides to see the
 * spread on the machine at the time (`docs/performance.md`, "The regression measured with both
 * servers under the same load").
 */
import autocannon from "autocannon"
import { fork } from "node:child_process"
import { resolve } from "node:path"
import { createTrade, proKey } from "./http.ts"
import { median } from "./Report.ts"
import { MARKET_DATA_PATH, type ServerReply, type ServerRequest } from "./ServerProtocol.ts"

const [treeA, treeB] = [process.argv[2], process.argv[3]]
if (treeA === undefined || treeB === undefined) {
  console.error("usage: node scripts/bench/trees.ts <tree A> <tree B> [rounds] [seconds]")
  process.exit(2)
}
const rounds = Number(process.argv[4] ?? 8)
const seconds = Number(process.argv[5] ?? 3)
const WARM_UP_SECONDS = 8
const CONNECTIONS_EACH = 5

type Usage = Extract<ServerReply, { type: "usage" }>

/** Where a tree's server listens: a checkout from before each server had a process of its own says `urls.apiUrl`. */
const urlOf = (ready: { readonly url?: string; readonly urls?: { readonly apiUrl: string } }): string =>
  ready.url ?? ready.urls!.apiUrl

/** One tree's swapdesk server, started and ready. */
const start = async (tree: string) => {
  const directory = resolve(tree)
  const child = fork(`${directory}/scripts/bench/serverProcess.ts`, ["api"], {
    cwd: directory,
    execArgv: [],
    stdio: ["ignore", "inherit", "inherit", "ipc"]
  })
  const next = <T extends ServerReply["type"]>(type: T) =>
    new Promise<Extract<ServerReply, { type: T }>>((done) => {
      const onMessage = (message: ServerReply) => {
        if (message.type !== type) return
        child.off("message", onMessage)
        done(message as Extract<ServerReply, { type: T }>)
      }
      child.on("message", onMessage)
    })
  const send = (message: ServerRequest) => child.send(message)
  const url = urlOf(await next("ready"))
  const usage = (): Promise<Usage> => {
    const reply = next("usage")
    send({ type: "usage" })
    return reply
  }
  return { url, usage, trade: await createTrade(url), stop: () => send({ type: "stop" }) }
}

type Server = Awaited<ReturnType<typeof start>>
type Route = "market" | "trade"
const ROUTES: ReadonlyArray<Route> = ["market", "trade"]

const options = (server: Server, route: Route, duration: number) =>
  route === "market"
    ? { url: `${server.url}${MARKET_DATA_PATH}`, connections: CONNECTIONS_EACH, pipelining: 1, duration }
    : {
      url: `${server.url}/v1/trades/${server.trade}`,
      headers: { authorization: `Bearer ${proKey}` },
      connections: CONNECTIONS_EACH,
      pipelining: 1,
      duration
    }

/** Loads `route` on every server at once; answers each one's CPU per response, in microseconds. */
const loadAll = async (servers: ReadonlyArray<Server>, route: Route, duration: number) => {
  const before = await Promise.all(servers.map((server) => server.usage()))
  const results = await Promise.all(servers.map((server) => autocannon(options(server, route, duration))))
  const after = await Promise.all(servers.map((server) => server.usage()))
  return servers.map((_, i) => {
    const failed = results[i]!.non2xx + results[i]!.errors
    if (failed > 0) throw new Error(`${route} on server ${i === 0 ? "A" : "B"}: ${failed} failed requests`)
    return (after[i]!.cpuMicros - before[i]!.cpuMicros) / Math.max(1, results[i]!.requests.total)
  })
}

const servers = [await start(treeA), await start(treeB)]
try {
  for (const route of ROUTES) await loadAll(servers, route, WARM_UP_SECONDS)
  const figures = new Map(ROUTES.map((route) => [route, { a: [] as Array<number>, b: [] as Array<number> }]))
  for (let round = 1; round <= rounds; round++) {
    const line: Array<string> = []
    for (const route of ROUTES) {
      const [a, b] = await loadAll(servers, route, seconds)
      figures.get(route)!.a.push(a!)
      figures.get(route)!.b.push(b!)
      line.push(`${route} A ${a!.toFixed(1)} µs, B ${b!.toFixed(1)} µs`)
    }
    console.log(`round ${round}: ${line.join("; ")}`)
  }
  for (const route of ROUTES) {
    const { a, b } = figures.get(route)!
    const ratios = b.map((value, i) => value / a[i]!)
    console.log(
      `${route}: A ${median(a).toFixed(1)} µs, B ${median(b).toFixed(1)} µs per request; B/A median ${
        median(ratios).toFixed(3)
      } (rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`
    )
  }
} finally {
  for (const server of servers) server.stop()
}
