/**
 * Turns what a provider or the network answered into the core's `AttemptFailure`, in one place:
 * an HTTP status with the provider's own words, or the transport error's message.
 */
import type { AttemptFailure } from "@swapdesk/core"

/** How long one attempt may take before it counts as failed. */
export const ATTEMPT_TIMEOUT_MS = 10_000

export const httpFailure = (status: number, detail: string): AttemptFailure => ({
  reason: `HTTP ${status}${detail === "" ? "" : `: ${detail.slice(0, 200)}`}`,
  responseStatus: status
})

export const thrownFailure = (error: unknown): AttemptFailure => {
  if (error instanceof Error && error.name === "TimeoutError") {
    return { reason: `no answer within ${ATTEMPT_TIMEOUT_MS / 1_000} s` }
  }
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : ""
  return { reason: `${error instanceof Error ? error.message : String(error)}${cause}` }
}

/** Whether a rejection is a failure already described (thrown as such inside an attempt). */
export const isFailure = (error: unknown): error is AttemptFailure =>
  typeof error === "object" && error !== null && "reason" in error && !(error instanceof Error)
