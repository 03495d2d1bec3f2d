import { decodeScenario, demoScenario, layerSimulator, Simulation, SimulatorControl } from "@swapdesk/simulator"
import { Effect, Layer } from "effect"
import { bareRandomWalks, defaultMarketParams } from "../packages/simulator/src/market/index.ts"
const sc = decodeScenario({ ...demoScenario, clock: { mode: "manual", start: "2026-01-01T00:00:00Z" } })
for (let i = 0; i < 3; i++) {
  const t = performance.now()
  new Simulation(sc)
  console.log("ctor", performance.now() - t)
}
for (let i = 0; i < 3; i++) {
  const t = performance.now()
  bareRandomWalks(42, defaultMarketParams, 86400)
  console.log("bare", performance.now() - t)
}
for (let i = 0; i < 2; i++) {
  const sim = new Simulation(sc)
  const t = performance.now()
  const until = sim.now + 86_400_000
  let n = 0
  while (sim.step(until) !== undefined) n++
  console.log("sync steps", n, performance.now() - t)
}
for (let i = 0; i < 3; i++) {
  await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const ctx = yield* Layer.build(layerSimulator(sc))
    const control = ctx.mapUnsafe.get(SimulatorControl.key) as SimulatorControl["Service"]
    const t = performance.now()
    yield* control.advance(86_400_000)
    console.log("advance", performance.now() - t)
  })))
}
console.log(defaultMarketParams.length)
