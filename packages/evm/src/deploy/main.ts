#!/usr/bin/env node
/**
 * `pnpm live:deploy`: deploys the project's contract on every network of the live file (`LIVE_CONFIG`)
 * that lacks it, paid by `DEPLOYER_KEY`, and writes the addresses into the file (`LiveDeploy.ts`).
 * One line per network on stdout; a setting or file it cannot use on stderr, exit 1, nothing
 * deployed; a network down or not completed makes the exit code 1 once the others are done.
 */
import { Console, Effect } from "effect"
import { deploymentSucceeded, describeDeployment, describeReport, liveDeploy } from "./LiveDeploy.ts"

const program = liveDeploy({ onNetwork: (outcome) => console.log(describeDeployment(outcome)) }).pipe(
  Effect.flatMap((report) =>
    Console.log(describeReport(report)).pipe(
      Effect.andThen(Effect.sync(() => {
        if (!deploymentSucceeded(report)) process.exitCode = 1
      }))
    )
  ),
  Effect.catchTag(
    "LiveDeployRefused",
    (refused) =>
      Console.error(`live:deploy: ${refused.message}`).pipe(Effect.andThen(Effect.sync(() => {
        process.exitCode = 1
      })))
  )
)

// A plain run: the program holds no resources to release, and Ctrl-C ends it like any command.
await Effect.runPromise(program)
