/**
 * The calls random workloads are made of, as fast-check arbitraries that each property tunes
 * (`SimulatorWorkload.ts`, `SimulationSnapshot.test.ts`, `chain/Conservation.test.ts`): a swap
 * submitted, a decision on a pending trade, a fault on a network, a price moved, a whale. Each
 * arbitrary is the same combinator whatever tunes it, so a pinned seed draws the same calls.
 */
import { fc } from "@fast-check/vitest"
import { type Network, networks } from "@swapdesk/core"
import type { FaultKind } from "../src/chain/Faults.ts"

export const networkArb = fc.constantFrom(...networks)

/** A swap as `swapArb(kind, …)` draws it. */
export interface SwapCall<K extends string> {
  readonly kind: K
  readonly account: number
  readonly network: Network
  readonly tokenIn: number
  readonly tokenOut: number
  /** Share of the free balance in permille (some workloads go past 1,000, so more than there is). */
  readonly permille: number
  readonly slippage: number
}
export type DecideCall = Readonly<{ kind: "decide"; pick: number; approve: boolean }>
export type FaultCall = Readonly<{ kind: "fault"; network: Network; fault: FaultKind; durationMs: number }>
export type PriceCall = Readonly<{ kind: "price"; token: number; permille: number }>
export type WhaleCall = Readonly<{ kind: "whale"; network: Network; token: number; valueUsd: number }>

/**
 * A swap of `account` on a network, from its `tokenIn`-th token to its `tokenOut`-th, for
 * `permille` of the free balance, at one of `slippages` (percent).
 */
export const swapArb = <K extends string>(kind: K, options: {
  readonly accounts: number
  readonly tokensIn: number
  readonly tokensOut: number
  readonly permille: fc.Arbitrary<number>
  readonly slippages: ReadonlyArray<number>
}) =>
  fc.record({
    kind: fc.constant(kind),
    account: fc.nat(options.accounts - 1),
    network: networkArb,
    tokenIn: fc.nat(options.tokensIn - 1),
    tokenOut: fc.nat(options.tokensOut - 1),
    permille: options.permille,
    slippage: fc.constantFrom(...options.slippages)
  })

/** Approve or reject the `pick`-th trade awaiting a decision (counted modulo how many there are). */
export const decideArb = (picks: number) =>
  fc.record({ kind: fc.constant("decide" as const), pick: fc.nat(picks - 1), approve: fc.boolean() })

/** One of `faults` on a network, for 1 s up to `maxDurationMs`. */
export const faultArb = (faults: ReadonlyArray<FaultKind>, maxDurationMs: number) =>
  fc.record({
    kind: fc.constant("fault" as const),
    network: networkArb,
    fault: fc.constantFrom(...faults),
    durationMs: fc.integer({ min: 1_000, max: maxDurationMs })
  })

/** The `token`-th of `tokens` tokens set to `permille` of its price. */
export const priceArb = (tokens: number, permille: { readonly min: number; readonly max: number }) =>
  fc.record({ kind: fc.constant("price" as const), token: fc.nat(tokens - 1), permille: fc.integer(permille) })

/** A whale of $10,000 to $5,000,000 in one of a network's first five tokens. */
export const whaleArb = fc.record({
  kind: fc.constant("whale" as const),
  network: networkArb,
  token: fc.nat(4),
  valueUsd: fc.integer({ min: 10_000, max: 5_000_000 })
})
