/**
 * The server's "now" as the interface shows it: the last envelope's timestamp, moved on with the
 * wall clock unless the simulator's clock is manual (then market time stands still until someone
 * advances it). A quote's expiry counts down against this, not against the browser's clock.
 */
import { computed, signal } from "@preact/signals"
import { serverClock } from "./api/Api.ts"

export const clockMode = signal<"realtime" | "manual" | null>(null)

/** Ticks once a second, so that countdowns re-render. */
export const wallNow = signal(Date.now())
setInterval(() => (wallNow.value = Date.now()), 1000)

export const serverNow = computed((): number | null => {
  const last = serverClock.value
  if (last === null) return null
  return clockMode.value === "manual" ? last.at : last.at + Math.max(0, wallNow.value - last.receivedAt)
})
