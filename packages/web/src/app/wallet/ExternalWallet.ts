/**
 * The browser wallet of a live account's external wallet, spoken to in plain EIP-1193 `request`
 * calls (no library: this module is loaded only on the live screens that need it, docs/live.md,
 * "Connecting a browser wallet"). It connects (`eth_requestAccounts`), moves the wallet to the
 * trade's chain (`wallet_switchEthereumChain`), sends what the server prepared for a trade (the
 * ERC-20 approval first, mined before the swap, then the swap) and reports the swap's hash, and
 * signs a limit order's EIP-712 `typedData`. A refusal in the wallet (EIP-1193 code 4001) is
 * reported as such: the trade is rejected, the unsigned order cancelled, so nothing stays held.
 */
import { ApiError, call } from "../api/Api.ts"
import type { Allowance, Order, Trade, TradeApproval } from "../api/Types.ts"
import { walletAccount, walletChainId } from "./WalletState.ts"

/** The provider's side of EIP-1193 that this module uses. */
export interface Eip1193Provider {
  readonly request: (args: { readonly method: string; readonly params?: ReadonlyArray<unknown> }) => Promise<unknown>
  readonly on?: (event: string, listener: (value: any) => void) => void
}

/** EIP-1193's "user rejected the request". */
export const USER_REJECTED = 4001
/** EIP-3326's "unrecognized chain": the wallet does not know the chain it was asked to switch to. */
export const UNKNOWN_CHAIN = 4902

/** `type(uint256).max`: the approval a delegated wallet gives the contract too (docs/decisions.md). */
const MAX_UINT256 = (1n << 256n) - 1n

/** ERC-20 `approve(address,uint256)`. */
const APPROVE_SELECTOR = "0x095ea7b3"

const RECEIPT_POLL_MS = 1_000
/** How long a sent approval may take to be mined before the flow gives up (the trade's own window). */
const RECEIPT_TIMEOUT_MS = 10 * 60_000
const REPORT_ATTEMPTS = 5

/** A request the wallet refused or failed, with the wallet's EIP-1193 code. */
export class WalletRefusal extends ApiError {
  readonly walletCode: number | undefined
  constructor(method: string, walletCode: number | undefined, message: string) {
    super(
      0,
      walletCode === USER_REJECTED ? "WALLET_REJECTED" : "WALLET_ERROR",
      `the wallet answered ${method} with ${message}${walletCode === undefined ? "" : ` (code ${walletCode})`}`
    )
    this.walletCode = walletCode
  }
}

/** Whether `error` is the user refusing in the wallet. */
export const isUserRejection = (error: unknown): boolean =>
  error instanceof WalletRefusal && error.walletCode === USER_REJECTED

const providerOf = (): Eip1193Provider => {
  const provider = (globalThis as { ethereum?: Eip1193Provider }).ethereum
  if (provider === undefined || typeof provider.request !== "function") {
    throw new ApiError(
      0,
      "NO_BROWSER_WALLET",
      "this browser has no wallet to connect (no EIP-1193 provider): install one, or trade from a wallet the server signs for"
    )
  }
  listen(provider)
  return provider
}

const listened = new WeakSet<Eip1193Provider>()

/** Follows the wallet's own changes of account and chain, so what the screens show stays true. */
const listen = (provider: Eip1193Provider) => {
  if (listened.has(provider) || typeof provider.on !== "function") return
  listened.add(provider)
  provider.on("accountsChanged", (accounts: ReadonlyArray<string>) => (walletAccount.value = accounts[0] ?? null))
  provider.on("chainChanged", (chainId: string) => (walletChainId.value = Number(chainId)))
}

const request = async <A>(method: string, params?: ReadonlyArray<unknown>): Promise<A> => {
  const provider = providerOf()
  try {
    return (await provider.request(params === undefined ? { method } : { method, params })) as A
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code
    const message = (error as { message?: unknown } | null)?.message
    throw new WalletRefusal(
      method,
      typeof code === "number" ? code : undefined,
      typeof message === "string" && message !== "" ? message : "an error"
    )
  }
}

const hex = (value: bigint | number): string => `0x${value.toString(16)}`

const word = (digits: string): string => digits.padStart(64, "0")

/** The call data of `approve(spender, amount)`. */
export const approveData = (spender: string, amount: bigint): string =>
  `${APPROVE_SELECTOR}${word(spender.replace(/^0x/i, "").toLowerCase())}${word(amount.toString(16))}`

/** Asks the wallet for its account (a connected site is answered without a prompt) and reads its chain. */
export const connect = async (): Promise<string> => {
  const accounts = await request<ReadonlyArray<string>>("eth_requestAccounts")
  const account = accounts[0]
  if (account === undefined) throw new ApiError(0, "WALLET_ERROR", "the wallet connected no account")
  walletAccount.value = account
  walletChainId.value = Number(await request<string>("eth_chainId"))
  return account
}

/** Connects, and checks that the account is `expected` (the trade's or order's wallet). */
const accountFor = async (expected: string): Promise<string> => {
  const account = await connect()
  if (account.toLowerCase() !== expected.toLowerCase()) {
    throw new ApiError(
      0,
      "WALLET_ACCOUNT_MISMATCH",
      `the wallet's account ${account} is not this account's wallet ${expected}: choose ${expected} in your wallet, then try again`
    )
  }
  return account
}

/** Moves the wallet to `chainId` (the network's, as the server gives it) unless it is there already. */
export const switchChain = async (chainId: number, network: string): Promise<void> => {
  if (Number(await request<string>("eth_chainId")) !== chainId) {
    try {
      await request("wallet_switchEthereumChain", [{ chainId: hex(chainId) }])
    } catch (error) {
      if (error instanceof WalletRefusal && error.walletCode === UNKNOWN_CHAIN) {
        throw new ApiError(
          0,
          "WALLET_UNKNOWN_CHAIN",
          `your wallet does not know ${network} (chain ${chainId}): add that network to it, then try again`
        )
      }
      throw error
    }
  }
  walletChainId.value = Number(await request<string>("eth_chainId"))
  if (walletChainId.value !== chainId) {
    throw new ApiError(
      0,
      "WALLET_WRONG_CHAIN",
      `the wallet is on chain ${walletChainId.value}, not ${network} (chain ${chainId})`
    )
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits until the wallet's node has mined `hash`; a reverted transaction fails. */
const mined = async (hash: string, what: string): Promise<void> => {
  const deadline = Date.now() + RECEIPT_TIMEOUT_MS
  for (;;) {
    const receipt = await request<{ readonly status?: string } | null>("eth_getTransactionReceipt", [hash])
    if (receipt !== null && receipt !== undefined) {
      if (receipt.status === "0x0") throw new ApiError(0, "WALLET_TRANSACTION_REVERTED", `${what} ${hash} reverted`)
      return
    }
    if (Date.now() > deadline) throw new ApiError(0, "WALLET_TRANSACTION_PENDING", `${what} ${hash} is still not mined`)
    await pause(RECEIPT_POLL_MS)
  }
}

/**
 * Sends the maximal approval of the contract for `allowance.token` when `allowance` is short, and
 * waits until it is mined: the swap or the fill that follows spends it.
 */
const approveIfShort = async (
  account: string,
  allowance: Allowance | null | undefined,
  chainId: number,
  symbol: string,
  step: (text: string) => void
) => {
  if (allowance === null || allowance === undefined || BigInt(allowance.current) >= BigInt(allowance.required)) return
  step(`Approve ${symbol} in your wallet`)
  const hash = await request<string>("eth_sendTransaction", [{
    from: account,
    to: allowance.token,
    data: approveData(allowance.spender, MAX_UINT256),
    value: "0x0",
    chainId: hex(chainId)
  }])
  step(`Waiting for the ${symbol} approval to confirm`)
  await mined(hash, `the ${symbol} approval`)
}

/**
 * Sends `body` to `path`, again after a failure that is not the server's refusal (no answer, a
 * 5xx, a 429): what it reports (a hash the wallet broadcast, a signature) must reach the server.
 */
const report = async <A>(method: string, path: string, body?: unknown): Promise<A> => {
  for (let attempt = 1;; attempt++) {
    try {
      return (await call<A>(method, path, body === undefined ? {} : { body })).data
    } catch (error) {
      const transient = error instanceof ApiError && (error.status === 0 || error.status === 429 || error.status >= 500)
      if (!transient || attempt >= REPORT_ATTEMPTS) throw error
      await pause(1_000 * 2 ** (attempt - 1))
    }
  }
}

/** The swaps the wallet broadcast, by trade: a retry reports the hash again and never sends twice. */
const broadcast = new Map<string, string>()

/** What a wallet flow ended with: the resource as the server answered, and whether the user refused. */
export interface WalletOutcome<A> {
  readonly value: A
  readonly rejected: boolean
}

/**
 * Has the wallet send `trade`'s prepared transactions and reports the swap's hash, telling `step`
 * what the user is asked at each point. A refusal in the wallet rejects the trade (its hold is
 * released at once).
 */
export const approveTrade = async (
  trade: Trade,
  approval: TradeApproval,
  step: (text: string) => void
): Promise<WalletOutcome<Trade>> => {
  const { transaction } = approval
  try {
    let hash = broadcast.get(trade.id)
    if (hash === undefined) {
      step("Connect your wallet")
      const account = await accountFor(trade.walletAddress ?? "")
      await switchChain(transaction.chainId, trade.network)
      await approveIfShort(account, approval.allowance, transaction.chainId, trade.tokenIn, step)
      step("Confirm the swap in your wallet")
      hash = await request<string>("eth_sendTransaction", [{
        from: account,
        to: transaction.to,
        data: transaction.data,
        value: hex(BigInt(transaction.value)),
        gas: hex(BigInt(transaction.gas)),
        chainId: hex(transaction.chainId)
      }])
      broadcast.set(trade.id, hash)
    }
    step("Waiting for confirmation")
    return { value: await report<Trade>("POST", `/trades/${trade.id}/approval`, { txHash: hash }), rejected: false }
  } catch (error) {
    if (!isUserRejection(error)) throw error
    const rejected = await report<Trade>("POST", `/trades/${trade.id}/approval`, { reject: true })
    step("Rejected in wallet")
    return { value: rejected, rejected: true }
  }
}

/**
 * Has the wallet sign `order`'s `typedData` (`eth_signTypedData_v4`), approves the contract for
 * `tokenIn` when the order's allowance is short (mined before the order opens, so that no fill is
 * tried without it), and posts the signature. A refusal in the wallet cancels the unsigned order, so
 * its funds are free at once rather than when the signing window ends (docs/decisions.md).
 */
export const signOrder = async (order: Order, step: (text: string) => void): Promise<WalletOutcome<Order>> => {
  const chainId = Number((order.typedData as { readonly domain?: { readonly chainId?: unknown } }).domain?.chainId)
  try {
    step("Connect your wallet")
    const account = await accountFor(order.walletAddress)
    await switchChain(chainId, order.network)
    step("Sign the order in your wallet")
    const signature = await request<string>("eth_signTypedData_v4", [account, JSON.stringify(order.typedData)])
    await approveIfShort(account, order.allowance, chainId, order.tokenIn, step)
    const signed = await report<Order>("POST", `/orders/${order.id}/signature`, { signature })
    step("Order signed: it fills when its price is reached")
    return { value: signed, rejected: false }
  } catch (error) {
    if (!isUserRejection(error)) throw error
    const cancelled = await report<Order>("DELETE", `/orders/${order.id}`)
    step("Rejected in wallet: the order is cancelled")
    return { value: cancelled, rejected: true }
  }
}
