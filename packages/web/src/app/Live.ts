/**
 * Polling that keeps the screens live without reloading, inside the key's rate limit: a poll is
 * skipped while a `429`'s `Retry-After` runs, and while the last `RateLimit-Remaining` is below a
 * fifth of `RateLimit-Limit` (the rest is kept for what the user does), until `RateLimit-Reset`.
 * Polls also wait while the page is hidden.
 */
import { useEffect, useRef } from "preact/hooks"
import { pausedUntil, rateLimit } from "./api/Api.ts"

/** Why live updates are held back at `now` (wall-clock ms), or null while they may run. */
export const heldBack = (now: number): string | null => {
  if (now < pausedUntil.value) {
    return `Rate limited: live updates resume in ${Math.ceil((pausedUntil.value - now) / 1000)} s`
  }
  const budget = rateLimit.value
  if (budget !== null && now < budget.resetAt && budget.remaining < budget.limit / 5) {
    return `Saving the rate limit: live updates resume in ${Math.ceil((budget.resetAt - now) / 1000)} s`
  }
  return null
}

/** Whether a background poll may spend a request now. */
export const mayPoll = (now = Date.now()): boolean => heldBack(now) === null && !document.hidden

/**
 * Runs `task` now (unless a 429's pause runs) and then every `intervalMs` while the component is
 * mounted, when `mayPoll` allows; a new `deps` value restarts it. `task` is the latest one passed, so it sees fresh state.
 */
export const usePoll = (task: () => Promise<unknown>, intervalMs: number, deps: ReadonlyArray<unknown>) => {
  const latest = useRef(task)
  latest.current = task
  useEffect(() => {
    let stopped = false
    let running = false
    // A first run (a screen shown, or its inputs changed) goes out even while the budget is being
    // saved, but not while a 429's Retry-After runs: the server would refuse it anyway.
    const tick = async (first: boolean) => {
      if (stopped || running || (first ? Date.now() < pausedUntil.value : !mayPoll())) return
      running = true
      try {
        await latest.current()
      } catch {
        // The task shows its own error; the next tick tries again.
      } finally {
        running = false
      }
    }
    void tick(true)
    const timer = setInterval(() => void tick(false), intervalMs)
    return () => {
      stopped = true
      clearInterval(timer)
    }
  }, deps)
}
