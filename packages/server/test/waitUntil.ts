/**
 * Waiting for a condition rather than for a guessed time: `waitUntil` checks `done` every `everyMs`
 * on the real clock until it holds, and fails naming `what` once `withinMs` have passed, so that a
 * slow machine only makes a test slower, never wrong, and a fast one does not wait at all.
 */
export const waitUntil = async (
  what: string,
  done: () => boolean | Promise<boolean>,
  { withinMs = 15_000, everyMs = 20 }: { readonly withinMs?: number; readonly everyMs?: number } = {}
): Promise<void> => {
  const deadline = performance.now() + withinMs
  for (;;) {
    if (await done()) return
    if (performance.now() > deadline) throw new Error(`still waiting for ${what} after ${withinMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}
