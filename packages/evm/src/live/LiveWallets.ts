/**
 * The core's `Wallets` on real chains. An account's wallets are the live file's; a wallet's
 * balances are read from the chain (the native coin and every token the network lists), and the
 * holds that reserve funds for pending trades and open orders are kept in memory, rebuilt at start
 * from the stored pending trades and open orders: free = on-chain balance − reserved.
 */
import {
  awaitsSignature,
  type Balance,
  InsufficientBalance,
  isOpen,
  type Network,
  OrderRepository,
  TradeRepository,
  unitsToDecimal,
  type WalletInfo,
  type Wallets
} from "@swapdesk/core"
import { Clock, Effect, Option } from "effect"
import { type Address, getAddress } from "viem"
import { addressOf } from "../LiveConfig.ts"
import type { LiveNetworkStatus } from "./LiveNetworkStatus.ts"
import { type LiveStateShape, networkContext } from "./LiveState.ts"

const pageSize = 100

/** The holds of the stored pending trades and open orders, put back into `state.holds`. */
export const restoreHolds = (state: LiveStateShape) =>
  Effect.gen(function*() {
    const trades = yield* TradeRepository
    const orders = yield* OrderRepository
    for (const account of state.config.accounts) {
      for (let offset = 0;; offset += pageSize) {
        const page = yield* trades.list(account.id, { status: "pending" }, { limit: pageSize, offset })
        for (const trade of page.items) {
          state.holds.set(trade.id, {
            holdId: trade.id,
            accountId: trade.accountId,
            network: trade.network,
            token: trade.tokenIn,
            amount: trade.amountIn
          })
        }
        if (page.items.length < pageSize) break
      }
    }
    // An order waiting for its owner's signature holds its funds too (docs/decisions.md).
    for (const order of yield* orders.open) {
      if (!isOpen(order) && !awaitsSignature(order)) continue
      state.holds.set(order.id, {
        holdId: order.id,
        accountId: order.accountId,
        network: order.network,
        token: order.tokenIn,
        amount: order.amountIn
      })
    }
    state.holdsVersion.value += 1
  })

/** The core's `Wallets` over the shared state; `status` gives the head blocks that mark balance changes. */
export const makeLiveWallets = (state: LiveStateShape, status: LiveNetworkStatus["Service"]): Wallets["Service"] => {
  const walletsOf = (accountId: string): ReadonlyArray<WalletInfo> =>
    (state.config.accounts.find((a) => a.id === accountId)?.wallets ?? []).map((w) => ({
      network: w.network as Network,
      address: getAddress(addressOf(w.address)),
      delegatedSigning: w.signingKeyEnv !== undefined
    }))

  const decimalsOf = (network: Network, symbol: string): number =>
    symbol === "ETH"
      ? 18
      : networkContext(state, network).settings.tokens.find((t) => t.symbol.toUpperCase() === symbol)?.decimals ?? 18

  /**
   * What the account's holds reserve of `token` against a balance read at `atBlock`: a trade whose
   * swap was mined by then is already out of that balance, and its hold does not count twice.
   */
  const reservedOf = (accountId: string, network: Network, token: string, atBlock?: bigint): bigint => {
    let sum = 0n
    for (const hold of state.holds.values()) {
      if (hold.accountId !== accountId || hold.network !== network || hold.token !== token) continue
      const minedIn = state.followed.get(hold.holdId)?.minedIn
      if (atBlock !== undefined && minedIn !== undefined && minedIn <= atBlock) continue
      sum += hold.amount
    }
    return sum
  }

  /** The last balances read of each wallet: what a read answers while its network is down. */
  const lastRead = new Map<string, { readonly blockNumber: bigint; readonly balances: ReadonlyMap<string, bigint> }>()

  /**
   * The wallet's on-chain balance of every listed token (and ETH), by symbol, and the block read.
   * With `fresh`, only a balance read now will do (a hold is never checked against a stale one);
   * otherwise a network that is down answers the last balances read.
   */
  const onChain = (accountId: string, network: Network, fresh: boolean) =>
    Effect.gen(function*() {
      const wallet = walletsOf(accountId).find((w) => w.network === network)
      if (wallet === undefined) return { blockNumber: undefined, balances: new Map<string, bigint>() }
      const context = networkContext(state, network)
      const symbols = [...context.addresses.keys()].filter((s) => s !== "ETH")
      const tokens = symbols.map((s) => context.addresses.get(s)!)
      const key = `${accountId}:${network}`
      const read = yield* context.rpc.balances(wallet.address as Address, tokens).pipe(
        Effect.map((found) => {
          const balances = new Map<string, bigint>([["ETH", found.native]])
          symbols.forEach((symbol, i) => balances.set(symbol, found.tokens.get(tokens[i]!) ?? 0n))
          const result = { blockNumber: found.blockNumber, balances }
          lastRead.set(key, result)
          return result
        }),
        Effect.catch((failure) => {
          const known = lastRead.get(key)
          return fresh || known === undefined ? Effect.die(failure) : Effect.succeed(known)
        })
      )
      return read
    })

  const balances: Wallets["Service"]["balances"] = (accountId, network) =>
    Effect.map(onChain(accountId, network, false), ({ balances: amounts, blockNumber }) => {
      const result = new Map<string, Balance>()
      for (const [symbol, amount] of amounts) {
        const reserved = reservedOf(accountId, network, symbol)
        const counted = reservedOf(accountId, network, symbol, blockNumber)
        if (amount > 0n || reserved > 0n || symbol === "ETH") {
          result.set(symbol, { free: amount > counted ? amount - counted : 0n, reserved })
        }
      }
      return result
    })

  const revisions = new Map<string, { key: string; revision: number }>()
  const revision: Wallets["Service"]["revision"] = (accountId) =>
    Effect.map(status.networks, (networks) => {
      const mine = new Set(walletsOf(accountId).map((w) => w.network))
      // Balances change only with a new block; holds change with `holdsVersion`.
      const key = [state.holdsVersion.value, ...networks.filter((n) => mine.has(n.network)).map((n) => n.headBlock)]
        .join(":")
      const known = revisions.get(accountId)
      if (known === undefined || known.key !== key) {
        revisions.set(accountId, { key, revision: (known?.revision ?? 0) + 1 })
      }
      return revisions.get(accountId)!.revision
    })

  const reserve: Wallets["Service"]["reserve"] = (hold) =>
    Effect.gen(function*() {
      const read = yield* onChain(hold.accountId, hold.network, true)
      const onChainAmount = read.balances.get(hold.token) ?? 0n
      // Read and check apart, but the check and the insertion together: no other hold slips between them.
      const reserved = reservedOf(hold.accountId, hold.network, hold.token, read.blockNumber)
      const free = onChainAmount > reserved ? onChainAmount - reserved : 0n
      if (hold.amount > free) {
        const decimals = decimalsOf(hold.network, hold.token)
        return yield* new InsufficientBalance({
          token: hold.token,
          network: hold.network,
          required: unitsToDecimal(hold.amount, decimals).toFixed(),
          available: unitsToDecimal(free, decimals).toFixed()
        })
      }
      state.holds.set(hold.holdId, hold)
      state.holdsVersion.value += 1
    })

  const release: Wallets["Service"]["release"] = (holdId) =>
    Effect.sync(() => {
      if (state.holds.delete(holdId)) state.holdsVersion.value += 1
    })

  const transferHold: Wallets["Service"]["transferHold"] = (fromHoldId, toHoldId) =>
    Effect.sync(() => {
      const hold = state.holds.get(fromHoldId)
      if (hold === undefined) throw new Error(`no hold ${fromHoldId} to transfer`)
      state.holds.delete(fromHoldId)
      state.holds.set(toHoldId, { ...hold, holdId: toHoldId })
      state.holdsVersion.value += 1
    })

  const openings = new Map<string, { at: number; balances: ReadonlyMap<string, bigint> }>()
  const opening: Wallets["Service"]["opening"] = (accountId, network) =>
    Effect.gen(function*() {
      const key = `${accountId}:${network}`
      const known = openings.get(key)
      if (known !== undefined) return known
      const at = yield* Clock.currentTimeMillis
      const read = { at, balances: (yield* onChain(accountId, network, true)).balances }
      openings.set(key, read)
      return read
    })

  return {
    wallet: (accountId, network) =>
      Effect.sync(() => Option.fromNullishOr(walletsOf(accountId).find((w) => w.network === network))),
    list: (accountId) => Effect.sync(() => walletsOf(accountId)),
    balances,
    revision,
    reserve,
    release,
    transferHold,
    opening
  }
}
