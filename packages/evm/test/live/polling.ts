/**
 * How the live tests wait for the chain or the followers: `polling` makes an `until` that reads
 * every `everyMs` until a condition holds, and fails with the last value read after a timeout.
 */

/** An `until` that reads every `everyMs`, giving up after `timeoutMs` unless a call names its own timeout. */
export const polling =
  (options: { readonly everyMs: number; readonly timeoutMs: number }) =>
  async <A>(read: () => Promise<A>, done: (a: A) => boolean, timeoutMs = options.timeoutMs): Promise<A> => {
    const start = Date.now()
    for (;;) {
      const value = await read()
      if (done(value)) return value
      if (Date.now() - start > timeoutMs) throw new Error(`timed out; last value: ${String(value)}`)
      await new Promise((resolve) => setTimeout(resolve, options.everyMs))
    }
  }
