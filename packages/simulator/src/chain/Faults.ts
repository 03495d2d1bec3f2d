/**
 * Injected network faults and what they do while they last. A fault is a half-open interval of
 * market time `[startAt, endAt)` on one network; faults of any kinds may overlap. Whether a fault is
 * active is a question about time, never about the order actions ran in, so a transaction
 * included at the very instant a fault ends is decided the same way on every run.
 */
import type { Network } from "@swapdesk/core"

/** `outage`: broadcasts are lost; `congestion`: slower inclusion, dearer gas; `gas_spike`: gas ×10. */
export type FaultKind = "outage" | "congestion" | "gas_spike"

export const faultKinds: ReadonlyArray<FaultKind> = ["outage", "congestion", "gas_spike"]

/** Gas price multiplier while a network is congested (priority fees bid up). */
export const CONGESTION_GAS_MULTIPLIER = 3n

/** Gas price multiplier during a gas spike (a popular mint, a liquidation cascade). */
export const GAS_SPIKE_MULTIPLIER = 10n

/** One injected fault. */
export interface Fault {
  readonly network: Network
  readonly kind: FaultKind
  readonly startAt: number
  readonly endAt: number
}

/** The faults injected so far, kept whole so that any past instant can still be asked about. */
export class FaultBook {
  private readonly faults: Array<Fault> = []

  /** Every fault injected so far, in order: a copy, for a snapshot. */
  snapshot(): ReadonlyArray<Fault> {
    return this.faults.map((f) => ({ ...f }))
  }

  /** A book holding `faults` (from `snapshot`). */
  static restore(faults: ReadonlyArray<Fault>): FaultBook {
    const book = new FaultBook()
    for (const fault of faults) book.add({ ...fault })
    return book
  }

  add(fault: Fault): void {
    if (!(fault.endAt > fault.startAt)) throw new RangeError(`a ${fault.kind} fault must last a positive time`)
    this.faults.push(fault)
  }

  /** Whether a fault of `kind` covers `at` on the network. */
  isActive(network: Network, kind: FaultKind, at: number): boolean {
    return this.faults.some((f) => f.network === network && f.kind === kind && f.startAt <= at && at < f.endAt)
  }

  /** The gas price factor on the network at `at`: overlapping faults of one kind do not compound. */
  gasMultiplier(network: Network, at: number): bigint {
    return (this.isActive(network, "congestion", at) ? CONGESTION_GAS_MULTIPLIER : 1n)
      * (this.isActive(network, "gas_spike", at) ? GAS_SPIKE_MULTIPLIER : 1n)
  }
}
