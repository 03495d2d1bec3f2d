/**
 * A consumer of the published packages, in-process: the repository's own `examples/simulate.ts`
 * (copied beside this file as `example-simulate.ts`, so the example itself is what compiles against
 * the installed packages), its swap run, and one JSON line printed for the test to check.
 */
import { Effect } from "effect"
import { swapOnce } from "./example-simulate.js"

const { created, events, trade } = await Effect.runPromise(swapOnce)
console.log(
  JSON.stringify({ node: process.versions.node, created: created.status, confirmed: trade, events: events.length })
)
