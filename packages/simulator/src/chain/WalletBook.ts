/**
 * The simulated wallets: balances per token, the holds that reserve funds for pending trades and
 * open orders, and a conservation ledger that proves no unit is created or lost.
 *
 * Every balance line keeps its history in four counters beside its two balances, so the books
 * balance at every instant:
 *
 *     initial + received - sent - gasBurned == free + reserved
 *
 * `received` and `sent` move only when a swap settles (confirmation), `gasBurned` only when a
 * transaction pays gas, and `reserve`/`release` only move units between free and reserved. Any
 * operation that would break a balance is refused before it changes anything: the engine checks
 * first, so reaching one of those refusals is a defect (a thrown error), never a typed error.
 */
import {
  type Balance,
  formatAmount,
  type Hold,
  InsufficientBalance,
  type Network,
  simulatorCatalog,
  type WalletInfo
} from "@swapdesk/core"

/** A wallet as a scenario declares it: balances are base units per token symbol. */
export interface WalletSpec {
  readonly accountId: string
  readonly network: Network
  readonly address: string
  readonly delegatedSigning: boolean
  readonly balances: Readonly<Record<string, bigint>>
}

/** One (account, network, token) line of the conservation ledger, in base units. */
export interface LedgerLine {
  readonly accountId: string
  readonly network: Network
  readonly token: string
  /** The scenario's starting balance. */
  readonly initial: bigint
  /** Output credited by confirmed swaps. */
  readonly received: bigint
  /** Input consumed by confirmed swaps. */
  readonly sent: bigint
  /** Gas paid by executed transactions (native token only). */
  readonly gasBurned: bigint
  readonly free: bigint
  readonly reserved: bigint
}

/** What settling a swap moved: the consumed hold and the credited output. */
export interface Settlement {
  readonly hold: Hold
  readonly tokenOut: string
  readonly amountOut: bigint
}

/**
 * A token line as data: `[token, initial, received, sent, gasBurned, free, reserved]`, a tuple
 * rather than an object so that a snapshot of many lines stays small.
 */
export type LineSnapshot = readonly [
  token: string,
  initial: bigint,
  received: bigint,
  sent: bigint,
  gasBurned: bigint,
  free: bigint,
  reserved: bigint
]

/** One wallet as data: who and where, and its lines in the order the tokens first appeared. */
export interface WalletSnapshot {
  readonly accountId: string
  readonly network: Network
  readonly address: string
  readonly delegatedSigning: boolean
  readonly lines: ReadonlyArray<LineSnapshot>
}

/** The book as data (docs/simulator.md#snapshots). */
export interface WalletBookSnapshot {
  /** In scenario order. */
  readonly wallets: ReadonlyArray<WalletSnapshot>
  /** The open holds, in the order they were made. */
  readonly holds: ReadonlyArray<Hold>
  /** Each account's `revision`, for the accounts whose balances ever changed. */
  readonly revisions: ReadonlyArray<readonly [accountId: string, revision: number]>
}

interface Line {
  initial: bigint
  received: bigint
  sent: bigint
  gasBurned: bigint
  free: bigint
  reserved: bigint
}

interface WalletState {
  readonly info: WalletInfo
  readonly accountId: string
  /** Token symbol to its line, in the order tokens first appeared (stable listing order). */
  readonly lines: Map<string, Line>
}

const walletKey = (accountId: string, network: Network): string => `${accountId}\u0000${network}`

const emptyLine = (initial: bigint): Line => ({
  initial,
  received: 0n,
  sent: 0n,
  gasBurned: 0n,
  free: initial,
  reserved: 0n
})

const defect = (message: string): never => {
  throw new Error(`WalletBook: ${message}`)
}

/** The wallets of every account, their balances and holds. Synchronous and deterministic. */
export class WalletBook {
  private readonly wallets = new Map<string, WalletState>()
  private readonly byAccount = new Map<string, Array<WalletState>>()
  private readonly holds = new Map<string, Hold>()
  /** Per account, how many times its balances changed: `revision`. */
  private readonly revisions = new Map<string, number>()

  constructor(wallets: ReadonlyArray<WalletSpec>) {
    for (const spec of wallets) {
      const key = walletKey(spec.accountId, spec.network)
      if (this.wallets.has(key)) defect(`account ${spec.accountId} has two wallets on ${spec.network}`)
      const lines = new Map<string, Line>()
      for (const [symbol, amount] of Object.entries(spec.balances)) {
        simulatorCatalog.tokenOf(symbol) // an unknown symbol is a scenario defect: fail at start, not at first use
        if (amount < 0n) defect(`negative starting balance of ${symbol} in ${spec.accountId}/${spec.network}`)
        lines.set(symbol, emptyLine(amount))
      }
      const state: WalletState = {
        info: { network: spec.network, address: spec.address, delegatedSigning: spec.delegatedSigning },
        accountId: spec.accountId,
        lines
      }
      this.wallets.set(key, state)
      const list = this.byAccount.get(spec.accountId) ?? []
      list.push(state)
      this.byAccount.set(spec.accountId, list)
    }
  }

  /** The book now, as data that shares nothing mutable with it. */
  snapshot(): WalletBookSnapshot {
    const wallets: Array<WalletSnapshot> = []
    for (const state of this.wallets.values()) {
      const lines: Array<LineSnapshot> = []
      for (const [token, l] of state.lines) {
        lines.push([token, l.initial, l.received, l.sent, l.gasBurned, l.free, l.reserved])
      }
      const { network, address, delegatedSigning } = state.info
      wallets.push({ accountId: state.accountId, network, address, delegatedSigning, lines })
    }
    return {
      wallets,
      holds: [...this.holds.values()].map((hold) => ({ ...hold })),
      revisions: [...this.revisions]
    }
  }

  /** A book that goes on exactly as the one `snapshot` was taken from. */
  static restore(snapshot: WalletBookSnapshot): WalletBook {
    const book = new WalletBook(snapshot.wallets.map((wallet) => ({
      accountId: wallet.accountId,
      network: wallet.network,
      address: wallet.address,
      delegatedSigning: wallet.delegatedSigning,
      balances: {}
    })))
    for (const wallet of snapshot.wallets) {
      const { lines } = book.stateOf(wallet.accountId, wallet.network)
      for (const [token, initial, received, sent, gasBurned, free, reserved] of wallet.lines) {
        lines.set(token, { initial, received, sent, gasBurned, free, reserved })
      }
    }
    for (const hold of snapshot.holds) book.holds.set(hold.holdId, { ...hold })
    for (const [accountId, revision] of snapshot.revisions) book.revisions.set(accountId, revision)
    book.checkInvariants()
    return book
  }

  /** The account's wallet on the network, if one is connected. */
  wallet(accountId: string, network: Network): WalletInfo | undefined {
    return this.wallets.get(walletKey(accountId, network))?.info
  }

  /** The account's wallets, in scenario order. */
  list(accountId: string): ReadonlyArray<WalletInfo> {
    return (this.byAccount.get(accountId) ?? []).map((state) => state.info)
  }

  /** Every token the wallet holds or has held, free and reserved; empty for an unknown wallet. */
  balances(accountId: string, network: Network): ReadonlyMap<string, Balance> {
    const out = new Map<string, Balance>()
    const state = this.wallets.get(walletKey(accountId, network))
    if (state === undefined) return out
    for (const [symbol, line] of state.lines) out.set(symbol, { free: line.free, reserved: line.reserved })
    return out
  }

  /** Changes whenever a balance of the account's wallets changes (`Wallets.revision`). */
  revision(accountId: string): number {
    return this.revisions.get(accountId) ?? 0
  }

  private touch(accountId: string): void {
    this.revisions.set(accountId, (this.revisions.get(accountId) ?? 0) + 1)
  }

  /** The free (unreserved) balance of one token; 0 for a token or wallet never seen. */
  free(accountId: string, network: Network, token: string): bigint {
    return this.wallets.get(walletKey(accountId, network))?.lines.get(token)?.free ?? 0n
  }

  /** The open hold under `holdId`, if any. */
  hold(holdId: string): Hold | undefined {
    return this.holds.get(holdId)
  }

  /**
   * Moves `hold.amount` from free to reserved under `hold.holdId`, atomically: either all of it or
   * nothing. A shortfall (or no wallet on that network) is answered, not thrown, because a client
   * can provoke it. A reused hold id or a non-positive amount is a defect.
   */
  reserve(hold: Hold): InsufficientBalance | undefined {
    if (hold.amount <= 0n) defect(`hold ${hold.holdId} must reserve a positive amount`)
    if (this.holds.has(hold.holdId)) defect(`hold ${hold.holdId} is already open`)
    const { decimals } = simulatorCatalog.tokenOf(hold.token)
    const state = this.wallets.get(walletKey(hold.accountId, hold.network))
    const line = state?.lines.get(hold.token)
    const available = line?.free ?? 0n
    if (line === undefined || available < hold.amount) {
      return new InsufficientBalance({
        token: hold.token,
        network: hold.network,
        required: formatAmount(hold.amount, decimals),
        available: formatAmount(available, decimals)
      })
    }
    line.free -= hold.amount
    line.reserved += hold.amount
    this.holds.set(hold.holdId, hold)
    this.touch(hold.accountId)
    return undefined
  }

  /**
   * Returns a hold's funds to free balance. Releasing a hold that is not open (never made, already
   * released or settled) does nothing: a cancellation racing a fill or a failure must not crash the
   * simulation, and nothing can be released twice because a released hold is gone. Answers whether
   * a hold was released.
   */
  release(holdId: string): boolean {
    const hold = this.holds.get(holdId)
    if (hold === undefined) return false
    const line = this.lineOf(hold.accountId, hold.network, hold.token)
    line.reserved -= hold.amount
    line.free += hold.amount
    this.holds.delete(holdId)
    this.touch(hold.accountId)
    return true
  }

  /**
   * Moves an open hold to a new id, keeping its funds reserved throughout (a limit order's hold
   * becoming the hold of the trade that fills it). A defect if `from` is not open or `to` is taken.
   */
  transferHold(fromHoldId: string, toHoldId: string): void {
    const hold = this.holds.get(fromHoldId) ?? defect(`no open hold ${fromHoldId} to transfer`)
    if (this.holds.has(toHoldId)) defect(`hold ${toHoldId} is already open`)
    this.holds.delete(fromHoldId)
    this.holds.set(toHoldId, { ...hold, holdId: toHoldId })
  }

  /**
   * Settles a confirmed swap: consumes the held input (it leaves the wallet) and credits
   * `amountOut` of `tokenOut` to the same wallet's free balance. A defect if the hold is not open.
   */
  settleSwap(holdId: string, tokenOut: string, amountOut: bigint): Settlement {
    const hold = this.holds.get(holdId) ?? defect(`no open hold ${holdId} to settle`)
    if (amountOut < 0n) defect(`swap ${holdId} cannot pay out a negative amount`)
    simulatorCatalog.tokenOf(tokenOut)
    const input = this.lineOf(hold.accountId, hold.network, hold.token)
    input.reserved -= hold.amount
    input.sent += hold.amount
    this.holds.delete(holdId)
    const state = this.stateOf(hold.accountId, hold.network)
    let output = state.lines.get(tokenOut)
    if (output === undefined) {
      output = emptyLine(0n)
      state.lines.set(tokenOut, output)
    }
    output.received += amountOut
    output.free += amountOut
    this.touch(hold.accountId)
    return { hold, tokenOut, amountOut }
  }

  /**
   * Pays gas from the free balance of `token` (the network's native token). Never touches reserved
   * funds: a hold backs its trade's input, not anyone's gas. A defect if the free balance is short
   * (the engine checks first and fails the trade with `INSUFFICIENT_GAS` instead).
   */
  burnGas(accountId: string, network: Network, token: string, amount: bigint): void {
    if (amount < 0n) defect("gas cannot be negative")
    if (amount === 0n) return
    const line = this.lineOf(accountId, network, token)
    if (line.free < amount) defect(`${accountId}/${network} cannot pay ${amount} ${token} of gas from ${line.free}`)
    line.free -= amount
    line.gasBurned += amount
    this.touch(accountId)
  }

  /** What the wallet held at the start: its scenario balances, in base units per token. */
  opening(accountId: string, network: Network): ReadonlyMap<string, bigint> {
    const out = new Map<string, bigint>()
    const state = this.wallets.get(walletKey(accountId, network))
    if (state === undefined) return out
    for (const [symbol, line] of state.lines) if (line.initial > 0n) out.set(symbol, line.initial)
    return out
  }

  /** Every ledger line, wallets in scenario order and tokens in order of first appearance. */
  ledger(): ReadonlyArray<LedgerLine> {
    const out: Array<LedgerLine> = []
    for (const state of this.wallets.values()) {
      for (const [token, line] of state.lines) {
        out.push({ accountId: state.accountId, network: state.info.network, token, ...line })
      }
    }
    return out
  }

  /** Every hold still open, in the order they were made. */
  openHolds(): ReadonlyArray<Hold> {
    return [...this.holds.values()]
  }

  /**
   * Throws (a defect) if any ledger line fails to balance, any balance is negative, or a line's
   * reserved amount differs from the sum of its open holds.
   */
  checkInvariants(): void {
    const heldByLine = new Map<string, bigint>()
    for (const hold of this.holds.values()) {
      const key = `${walletKey(hold.accountId, hold.network)}\u0000${hold.token}`
      heldByLine.set(key, (heldByLine.get(key) ?? 0n) + hold.amount)
      if (this.wallets.get(walletKey(hold.accountId, hold.network))?.lines.get(hold.token) === undefined) {
        defect(`hold ${hold.holdId} is on a line that does not exist`)
      }
    }
    for (const line of this.ledger()) {
      const where = `${line.accountId}/${line.network}/${line.token}`
      if (line.free < 0n) defect(`${where}: free balance ${line.free} is negative`)
      if (line.reserved < 0n) defect(`${where}: reserved balance ${line.reserved} is negative`)
      if (line.initial + line.received - line.sent - line.gasBurned !== line.free + line.reserved) {
        defect(
          `${where}: initial ${line.initial} + received ${line.received} - sent ${line.sent} - gas ${line.gasBurned}`
            + ` != free ${line.free} + reserved ${line.reserved}`
        )
      }
      const held = heldByLine.get(`${walletKey(line.accountId, line.network)}\u0000${line.token}`) ?? 0n
      if (held !== line.reserved) defect(`${where}: reserved ${line.reserved} but open holds sum to ${held}`)
    }
  }

  private stateOf(accountId: string, network: Network): WalletState {
    return this.wallets.get(walletKey(accountId, network)) ?? defect(`no wallet for ${accountId} on ${network}`)
  }

  private lineOf(accountId: string, network: Network, token: string): Line {
    return this.stateOf(accountId, network).lines.get(token)
      ?? defect(`${accountId}/${network} has no ${token} balance line`)
  }
}
