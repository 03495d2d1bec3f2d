/**
 * The standalone server: `pnpm start`. Serves the contract and the simulator's control routes on
 * the scenario in `SCENARIO` (the built-in demo scenario when unset), at `HOST`:`PORT`. On SIGINT
 * or SIGTERM it stops accepting connections, lets requests in flight finish, and exits 0.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { decodeScenario, demoScenario, InvalidScenario, parseScenario, type ScenarioFile } from "@swapdesk/simulator"
import { Cause, Config, Effect, Layer } from "effect"
import { HttpServer } from "effect/http"
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import { serve } from "./Server.ts"
import { simulatorApp } from "./SimulatorServer.ts"

const settings = Config.all({
  // 0 asks the operating system for a free port (the log line says which).
  port: Config.Int("PORT").pipe(Config.withDefault(3000)),
  host: Config.String("HOST").pipe(Config.withDefault("127.0.0.1")),
  scenario: Config.String("SCENARIO").pipe(Config.withDefault(""))
})

const loadScenario = (path: string): ScenarioFile => {
  if (path === "") return decodeScenario(demoScenario)
  let text: string
  try {
    text = readFileSync(path, "utf8")
  } catch (error) {
    throw new InvalidScenario([{
      path: "",
      message: `cannot be read from ${path}: ${(error as Error).message}`,
      value: path
    }])
  }
  return parseScenario(text)
}

const program = Effect.gen(function*() {
  const { host, port, scenario: scenarioPath } = yield* settings
  if (port < 0 || port > 65_535) {
    console.error(`swapdesk: PORT must be between 0 and 65535, not ${port}`)
    return process.exit(1)
  }
  let scenario: ScenarioFile
  try {
    scenario = loadScenario(scenarioPath)
  } catch (error) {
    if (error instanceof InvalidScenario) {
      console.error(
        `swapdesk: cannot start on ${scenarioPath === "" ? "the demo scenario" : scenarioPath}: ${error.message}`
      )
      return process.exit(1)
    }
    throw error
  }
  const logAddress = Layer.effectDiscard(Effect.gen(function*() {
    const address = HttpServer.formatAddress((yield* HttpServer.HttpServer).address)
    const label = scenarioPath === "" ? "the demo scenario" : scenarioPath
    console.log(`swapdesk listening on ${address} (simulator: ${label}); API docs at ${address}/docs`)
  }))
  const server = NodeHttpServer.layer(createServer, { port, host, gracefulShutdownTimeout: "5 seconds" })
  yield* Layer.launch(serve(simulatorApp(scenario)).pipe(Layer.merge(logAddress), Layer.provide(server)))
})

NodeRuntime.runMain(program, {
  // Stopping on a signal is the normal way to end the server, not a failure.
  teardown: (exit, onExit) => onExit(exit._tag === "Success" || Cause.hasInterruptsOnly(exit.cause) ? 0 : 1)
})
