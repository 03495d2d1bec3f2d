/**
 * A viem client for a local node, signing with one of anvil's dev accounts: the accounts of the
 * well-known test mnemonic every anvil starts with, funded with 10 000 ETH each.
 */
import {
  type Account,
  type Chain,
  createWalletClient,
  defineChain,
  http,
  type PublicActions,
  publicActions,
  type Transport,
  type WalletClient
} from "viem"
import { mnemonicToAccount } from "viem/accounts"

/** The mnemonic anvil derives its dev accounts from (public knowledge: never for real funds). */
export const devMnemonic = "test test test test test test test test test test test junk"

/** The `index`th dev account of a node started with the default mnemonic. */
export const devAccount = (index: number): Account => mnemonicToAccount(devMnemonic, { addressIndex: index })

/** A chain definition for a local node: its chain id and RPC URL. */
export const devnetChain = (rpcUrl: string, chainId: number): Chain =>
  defineChain({
    id: chainId,
    name: `devnet-${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    // A Uniswap V2 pair writes its price accumulators only in a block of a later second than its
    // last update (about 44 000 gas a pair the first time, from zero), and the node estimates gas in
    // the latest block's second: a swap estimated there can run out of gas when mined. On a local
    // node unused gas costs nothing, so every gas limit is twice the estimate (or the limit given).
    prepareTransactionRequest: [
      async (request) => (request.gas === undefined ? request : { ...request, gas: request.gas * 2n }),
      { runAt: ["afterFillParameters"] }
    ]
  })

/** A client that reads and sends transactions from `account` on the node at `rpcUrl`. */
export const devnetClient = (rpcUrl: string, chainId: number, account: Account): DevnetClient =>
  createWalletClient({
    account,
    chain: devnetChain(rpcUrl, chainId),
    transport: http(rpcUrl),
    // A local node answers at once; receipts are polled fast to keep interval-mined runs short.
    pollingInterval: 50
  }).extend(publicActions)

/** The client every devnet helper takes: a wallet client that reads too. */
export type DevnetClient = WalletClient<Transport, Chain, Account> & PublicActions<Transport, Chain, Account>
