// Proves the server's logging layer (src/Logging.ts): with LOG_FORMAT=json each entry is one JSON line with its
// message, level and annotations; text is one logfmt line; entries under the minimum level (Info unless set) are
// dropped, so a request's Debug line is off by default; errors go to the console's error stream and the rest to its
// info and debug streams; and the settings' texts parse as documented (case aside), anything else being refused.
// The layer runs on a console that keeps what it is given.
import { Console, Effect } from "effect"
import { describe, expect, it } from "vitest"
import { layer, parseLogFormat, parseLogLevel } from "../src/Logging.ts"

const run = (program: Effect.Effect<void>, ...settings: Parameters<typeof layer>) => {
  const lines: Array<{ readonly stream: string; readonly line: string }> = []
  const keep = (stream: string) => (line: unknown) => void lines.push({ stream, line: String(line) })
  const console: Console.Console = Object.assign(Object.create(globalThis.console), {
    debug: keep("debug"),
    info: keep("info"),
    warn: keep("warn"),
    error: keep("error")
  })
  Effect.runSync(program.pipe(Effect.provide(layer(...settings)), Effect.provideService(Console.Console, console)))
  return lines
}

const request = Effect.logDebug("GET /v1/health 200").pipe(
  Effect.annotateLogs({ requestId: "req-1", route: "GET /v1/health", status: 200 })
)
const failure = Effect.logError("request failed").pipe(Effect.annotateLogs({ requestId: "req-2", status: 500 }))

describe("Logging.layer", () => {
  it("writes JSON lines with the annotations, from the level given", () => {
    const lines = run(Effect.andThen(request, failure), "json", "Debug")
    expect(lines.map((entry) => entry.stream)).toEqual(["debug", "error"])
    expect(JSON.parse(lines[0]!.line)).toMatchObject({
      message: "GET /v1/health 200",
      level: "DEBUG",
      annotations: { requestId: "req-1", route: "GET /v1/health", status: 200 }
    })
    expect(JSON.parse(lines[1]!.line)).toMatchObject({ level: "ERROR", annotations: { requestId: "req-2" } })
  })

  it("writes logfmt text, and drops what is under Info unless told otherwise", () => {
    const lines = run(Effect.andThen(request, failure), "text")
    expect(lines).toHaveLength(1)
    expect(lines[0]!.stream).toBe("error")
    expect(lines[0]!.line).toMatch(/level=ERROR .*message="request failed" requestId=req-2 status=500/)
  })
})

describe("the settings", () => {
  it("parse as documented, case aside, and refuse anything else", () => {
    expect([parseLogFormat(""), parseLogFormat("json"), parseLogFormat("text"), parseLogFormat("xml")]).toEqual([
      "text",
      "json",
      "text",
      undefined
    ])
    expect([parseLogLevel(""), parseLogLevel("debug"), parseLogLevel("WARN"), parseLogLevel("loud")]).toEqual([
      "Info",
      "Debug",
      "Warn",
      undefined
    ])
  })
})
