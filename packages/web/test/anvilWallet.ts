/**
 * A browser wallet for the browser tests: an EIP-1193 provider at `window.ethereum` whose requests
 * are answered in the test process by a wallet that holds one private key and talks to real anvil
 * nodes. It implements the protocol, not the interface's expectations: `eth_requestAccounts`
 * answers the key's address (and `accountsChanged`), `eth_chainId` the chain it is on,
 * `wallet_switchEthereumChain` moves it to another node it knows (`chainChanged`) or answers 4902
 * (until the test adds the chain, as a user adds a network),
 * `eth_sendTransaction` fills the nonce, fees and gas from the node, signs locally with viem and
 * broadcasts the raw transaction, `eth_signTypedData_v4` signs the payload with the same key, and
 * everything else is forwarded to the node as JSON-RPC. `refuseNext(method)` makes the next such
 * request answer 4001, as a user pressing "Reject" does; `failNext(method)` an internal error.
 */
import type { Page } from "playwright-core"
import { createPublicClient, type Hex, http, type PublicClient } from "viem"
import { privateKeyToAccount } from "viem/accounts"

/** What the page's provider receives back: a result, or an EIP-1193 error. */
type Answer = { readonly result: unknown } | { readonly error: { readonly code: number; readonly message: string } }

/** One request the wallet answered, with the interface's step text at that moment when it asked the user. */
export interface WalletRequest {
  readonly method: string
  readonly params: ReadonlyArray<any>
  /** The `.wallet-step` text the page showed when the wallet asked the user (sending or signing). */
  readonly step?: string
  readonly result?: unknown
}

export interface AnvilWallet {
  readonly address: Hex
  /** Every request, in order. */
  readonly requests: ReadonlyArray<WalletRequest>
  /** The chain the wallet is on. */
  readonly chainId: () => number
  /** The next request of `method` is refused with 4001 (user rejected). */
  readonly refuseNext: (method: string) => void
  /** The next request of `method` fails with -32603 (an internal error of the wallet, such as a locked keyring). */
  readonly failNext: (method: string) => void
  /** The user adds a network to the wallet: the node of `chainId` at `rpcUrl`. */
  readonly addChain: (chainId: number, rpcUrl: string) => void
}

class ProviderError extends Error {
  readonly code: number
  constructor(code: number, message: string) {
    super(message)
    this.code = code
  }
}

/**
 * Installs the wallet in `page` (before it loads the interface): it holds `privateKey`, knows the
 * nodes of `chains` (chain id → RPC URL) and starts on `startChainId`.
 */
export const installAnvilWallet = async (
  page: Page,
  options: { readonly privateKey: Hex; readonly chains: ReadonlyMap<number, string>; readonly startChainId: number }
): Promise<AnvilWallet> => {
  const account = privateKeyToAccount(options.privateKey)
  const rpcUrls = new Map(options.chains)
  const clients = new Map<number, PublicClient>(
    [...rpcUrls].map(([chainId, rpcUrl]) => [chainId, createPublicClient({ transport: http(rpcUrl) })])
  )
  let current = options.startChainId
  const requests: Array<WalletRequest> = []
  const refused = new Set<string>()
  const failing = new Set<string>()
  const node = () => clients.get(current)!
  const stepShown = () => page.locator(".wallet-step").first().textContent({ timeout: 1_000 }).catch(() => undefined)

  const asksUser = async (method: string) => {
    const step = await stepShown()
    if (refused.delete(method)) {
      requests.push({ method, params: [], ...(step === undefined || step === null ? {} : { step }) })
      throw new ProviderError(4001, "User rejected the request.")
    }
    if (failing.delete(method)) {
      requests.push({ method, params: [], ...(step === undefined || step === null ? {} : { step }) })
      throw new ProviderError(-32603, "Internal error: the keyring is locked.")
    }
    return step ?? undefined
  }

  const answer = async (method: string, params: ReadonlyArray<any>): Promise<unknown> => {
    switch (method) {
      case "eth_requestAccounts":
      case "eth_accounts":
        return [account.address]
      case "eth_chainId":
        return `0x${current.toString(16)}`
      case "wallet_switchEthereumChain": {
        const chainId = Number(params[0]?.chainId)
        if (!clients.has(chainId)) throw new ProviderError(4902, `Unrecognized chain ID ${params[0]?.chainId}.`)
        current = chainId
        return null
      }
      case "eth_sendTransaction": {
        const step = await asksUser(method)
        const transaction = params[0] as { from: Hex; to: Hex; data?: Hex; value?: Hex; gas?: Hex; chainId?: Hex }
        if (transaction.from.toLowerCase() !== account.address.toLowerCase()) {
          throw new ProviderError(4100, `The requested account ${transaction.from} has not been authorized.`)
        }
        if (transaction.chainId !== undefined && Number(transaction.chainId) !== current) {
          throw new ProviderError(-32602, `chainId ${transaction.chainId} does not match the current chain ${current}.`)
        }
        const client = node()
        const request = {
          account: account.address,
          to: transaction.to,
          data: transaction.data ?? "0x",
          value: BigInt(transaction.value ?? "0x0")
        } as const
        const [nonce, fees, gas] = await Promise.all([
          client.getTransactionCount({ address: account.address, blockTag: "pending" }),
          client.estimateFeesPerGas(),
          transaction.gas === undefined ? client.estimateGas(request) : Promise.resolve(BigInt(transaction.gas))
        ])
        const signed = await account.signTransaction({
          type: "eip1559",
          chainId: current,
          to: request.to,
          data: request.data,
          value: request.value,
          gas,
          nonce,
          maxFeePerGas: fees.maxFeePerGas,
          maxPriorityFeePerGas: fees.maxPriorityFeePerGas
        })
        const hash = await client.sendRawTransaction({ serializedTransaction: signed })
        requests.push({ method, params, ...(step === undefined ? {} : { step }), result: hash })
        return hash
      }
      case "eth_signTypedData_v4": {
        const step = await asksUser(method)
        if (String(params[0]).toLowerCase() !== account.address.toLowerCase()) {
          throw new ProviderError(4100, `The requested account ${params[0]} has not been authorized.`)
        }
        const signature = await account.signTypedData(JSON.parse(params[1]))
        requests.push({ method, params, ...(step === undefined ? {} : { step }), result: signature })
        return signature
      }
      default: {
        const response = await fetch(rpcUrls.get(current)!, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })
        })
        const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string } }
        if (body.error !== undefined) throw new ProviderError(body.error.code, body.error.message)
        return body.result ?? null
      }
    }
  }

  await page.exposeFunction("__anvilWallet", async (method: string, params: ReadonlyArray<any>): Promise<Answer> => {
    try {
      const result = await answer(method, params)
      if (method !== "eth_sendTransaction" && method !== "eth_signTypedData_v4") {
        requests.push({ method, params, result })
      }
      return { result }
    } catch (error) {
      if (!(error instanceof ProviderError)) requests.push({ method, params })
      return {
        error: error instanceof ProviderError
          ? { code: error.code, message: error.message }
          : { code: -32603, message: (error as Error).message }
      }
    }
  })

  // The provider object in the page: it hands each request to the wallet above and emits the
  // events a wallet emits when its account or chain changes.
  await page.addInitScript(() => {
    const listeners = new Map<string, Set<(value: unknown) => void>>()
    const emit = (event: string, value: unknown) => listeners.get(event)?.forEach((listener) => listener(value))
    const provider = {
      request: async ({ method, params }: { method: string; params?: ReadonlyArray<any> }) => {
        // Looked up at each request: the binding is the test process's answer.
        const answer = await (globalThis as any).__anvilWallet(method, params ?? [])
        if ("error" in answer) throw Object.assign(new Error(answer.error.message), { code: answer.error.code })
        if (method === "wallet_switchEthereumChain") emit("chainChanged", params![0].chainId)
        if (method === "eth_requestAccounts") emit("accountsChanged", answer.result)
        return answer.result
      },
      on: (event: string, listener: (value: unknown) => void) => {
        listeners.set(event, (listeners.get(event) ?? new Set()).add(listener))
      },
      removeListener: (event: string, listener: (value: unknown) => void) => {
        listeners.get(event)?.delete(listener)
      }
    }
    Object.defineProperty(globalThis, "ethereum", { value: provider, configurable: false, writable: false })
  })

  return {
    address: account.address,
    requests,
    chainId: () => current,
    refuseNext: (method) => void refused.add(method),
    failNext: (method) => void failing.add(method),
    addChain: (chainId, rpcUrl) => {
      rpcUrls.set(chainId, rpcUrl)
      clients.set(chainId, createPublicClient({ transport: http(rpcUrl) }))
    }
  }
}
