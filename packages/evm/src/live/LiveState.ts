/**
 * What the live ports share: each configured network's RPC and token addresses, the delegated
 * signers, the holds that reserve funds for pending trades and open orders, and the trades the
 * followers follow. One value per server, built from the live file; the ports and the followers
 * read and change it synchronously, so each change is atomic with respect to the others.
 */
import { type ApprovalRequest, type Hold, type Network } from "@swapdesk/core"
import { Context } from "effect"
import { type Address, getAddress, type Hash } from "viem"
import type { DelegatedSigner, ExecutorSigner } from "../DelegatedSigners.ts"
import { type EvmNetwork, isEvmNetwork, nativeTokenAddress } from "../EvmNetwork.ts"
import { type EvmRpc, evmRpcSettingsOf, makeEvmRpc } from "../EvmRpc.ts"
import { addressOf, type LiveConfig, type LiveNetwork, liveNetworksOf } from "../LiveConfig.ts"
import { makeNonceManager, type NonceManager } from "./NonceManager.ts"

/** One configured network as the ports use it. */
export interface LiveNetworkContext {
  readonly network: EvmNetwork
  readonly settings: LiveNetwork
  readonly rpc: EvmRpc
  /** The project's contract, when deployed. */
  readonly swapdeskRouter: Address | undefined
  /** Each listed token's address by upper-case symbol, `ETH` as `nativeTokenAddress`. */
  readonly addresses: ReadonlyMap<string, Address>
}

/** A trade the followers follow from its broadcast to its end. */
export interface FollowedTrade {
  readonly tradeId: string
  readonly accountId: string
  readonly network: EvmNetwork
  /** Every transaction the trade sent, in order: an ERC-20 approval first when one was needed, the swap last. */
  readonly transactions: ReadonlyArray<Hash>
  /** When the swap was sent (ms): not mined 10 minutes later, the trade failed. */
  readonly sentAt: number
  /** The node refused the swap at broadcast: nothing of it will ever be mined. */
  readonly refused: boolean
  /** The wallet that sent it. */
  readonly wallet: Address
  /** The funds the trade holds, put back should a reorganisation undo its confirmation. */
  readonly hold?: Hold
  /**
   * The block its swap was mined in, successfully, before it was confirmed: a balance read at that
   * block or later already shows the swap, so the trade's hold no longer counts against it.
   */
  readonly minedIn?: bigint
  /**
   * The swap its external wallet said it broadcast, by hash, when the node did not have it yet: it
   * is checked against this prepared swap once the node shows it.
   */
  readonly unchecked?: AwaitingTrade
  /** The block the trade was confirmed in, once reported confirmed: a reorganisation is watched for. */
  readonly confirmedIn?: { readonly number: bigint; readonly hash: Hash }
}

/** An external wallet's swap, prepared and waiting for its owner's answer. */
export interface AwaitingTrade {
  readonly tradeId: string
  readonly accountId: string
  readonly network: EvmNetwork
  /** The wallet that must send it. */
  readonly wallet: Address
  readonly request: ApprovalRequest
}

/** The shared state's value. */
export interface LiveStateShape {
  readonly config: LiveConfig
  readonly networks: ReadonlyMap<EvmNetwork, LiveNetworkContext>
  /** The delegated signer of the account's wallet on the network, when it has one. */
  readonly signerOf: (accountId: string, network: Network) => DelegatedSigner | undefined
  /** The network's executor, which alone fills limit orders through the project's contract. */
  readonly executorOf: (network: Network) => ExecutorSigner | undefined
  /** Open holds by id. */
  readonly holds: Map<string, Hold>
  /** Bumped by every change of `holds`. */
  readonly holdsVersion: { value: number }
  /** Trades being followed, by id. */
  readonly followed: Map<string, FollowedTrade>
  /** The delegated wallets' nonces. */
  readonly nonces: NonceManager
  /** External wallets' swaps waiting for their owners, by trade id (the followers time them out). */
  readonly awaiting: Map<string, AwaitingTrade>
}

/** The live ports' shared state (provided by `layerLivePorts`, required by `layerLiveFollowers`). */
export class LiveState extends Context.Service<LiveState, LiveStateShape>()("@swapdesk/evm/LiveState") {}

/** Settings that tests shorten. */
export interface LiveStateOptions {
  /** Per RPC call; 10 s when absent. */
  readonly rpcTimeoutMs?: number
}

/** The shared state of a live file and its delegated signers. */
export const makeLiveState = (
  config: LiveConfig,
  signers: ReadonlyArray<DelegatedSigner>,
  options: LiveStateOptions = {},
  executors: ReadonlyArray<ExecutorSigner> = []
): LiveStateShape => {
  const networks = new Map<EvmNetwork, LiveNetworkContext>()
  for (const [network, settings] of liveNetworksOf(config)) {
    const addresses = new Map<string, Address>([["ETH", nativeTokenAddress]])
    for (const token of settings.tokens) addresses.set(token.symbol.toUpperCase(), getAddress(addressOf(token.address)))
    const rpcSettings = evmRpcSettingsOf(
      network,
      settings,
      options.rpcTimeoutMs === undefined ? {} : { timeoutMs: options.rpcTimeoutMs }
    )
    networks.set(network, {
      network,
      settings,
      rpc: makeEvmRpc(rpcSettings),
      swapdeskRouter: rpcSettings.swapdeskRouter,
      addresses
    })
  }
  const bySigner = new Map(signers.map((s) => [`${s.accountId}:${s.network}`, s]))
  return {
    config,
    networks,
    signerOf: (accountId, network) => bySigner.get(`${accountId}:${network}`),
    executorOf: (network) => executors.find((e) => e.network === network),
    holds: new Map(),
    holdsVersion: { value: 0 },
    followed: new Map(),
    nonces: makeNonceManager(),
    awaiting: new Map()
  }
}

/** The network's context; a network the file does not configure reaching a port is a defect. */
export const networkContext = (state: LiveStateShape, network: Network): LiveNetworkContext => {
  const context = isEvmNetwork(network) ? state.networks.get(network) : undefined
  if (context === undefined) throw new Error(`${network} is not a network of the live file`)
  return context
}

/** A listed token's address on the network (`nativeTokenAddress` for ETH); a miss is a defect. */
export const tokenAddress = (context: LiveNetworkContext, symbol: string): Address => {
  const address = context.addresses.get(symbol.toUpperCase())
  if (address === undefined) throw new Error(`${symbol} is not listed on ${context.network}`)
  return address
}
