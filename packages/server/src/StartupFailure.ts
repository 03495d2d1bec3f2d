import { Data, Runtime } from "effect"

/**
 * Why the standalone server cannot start, in words an operator acts on. `main.ts` prints it in one
 * line and exits 1, so the runtime does not print it again as an error dump.
 */
export class StartupFailure extends Data.TaggedError("StartupFailure")<{ readonly message: string }> {
  override readonly [Runtime.errorReported] = false
}
