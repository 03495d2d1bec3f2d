/**
 * The project's own contract on each EVM network (contracts/SwapdeskRouter.sol): one transaction
 * per trade (take, swap through Uniswap V2, pay the fee, deliver, or revert below the minimum) and
 * the executor's fills of signed limit orders. Its ABI and creation code are the committed
 * artifact; this module adds what callers need beside them: the EIP-712 domain its orders are
 * signed under, the error that means slippage, and deployment.
 */
import { ORDER_DOMAIN } from "@swapdesk/core"
import {
  type Account,
  type Address,
  type Chain,
  getAddress,
  type PublicActions,
  toFunctionSelector,
  type Transport,
  type WalletClient
} from "viem"
import { swapdeskRouterAbi, swapdeskRouterBytecode } from "./SwapdeskRouterArtifact.ts"

export { swapdeskRouterAbi, swapdeskRouterBytecode }

/** What the contract is deployed with: the exchange it swaps on, and who fills and who is paid. */
export interface SwapdeskRouterSettings {
  /** The Uniswap V2 Router02 every swap goes through (immutable). */
  readonly router: Address
  /** The WETH that router trades in place of ETH (immutable). */
  readonly weth: Address
  /** The only account that may fill limit orders (the owner can rotate it). */
  readonly executor: Address
  /** Where the platform fee goes (the owner can change it). */
  readonly feeRecipient: Address
  /** Who may rotate the executor and the fee recipient (two-step transfer). */
  readonly owner: Address
}

/**
 * The EIP-712 domain a limit order is signed under on one network: the order domain's name and
 * version, the chain id, and the contract that fills it, so a signature is good on that chain and
 * that contract only.
 */
export const orderDomainOf = (chainId: number, verifyingContract: Address) =>
  ({ ...ORDER_DOMAIN, chainId, verifyingContract }) as const

/** The selector of `SlippageExceeded(uint256,uint256)`: a reverted trade with it failed the minimum. */
export const slippageExceededSelector = toFunctionSelector("SlippageExceeded(uint256,uint256)")

/** A client that signs and sends from one account and reads the chain. */
export type SendingClient = WalletClient<Transport, Chain, Account> & PublicActions<Transport, Chain, Account>

/** Deploys the contract from the client's account and waits for its address. */
export const deploySwapdeskRouter = async (
  client: SendingClient,
  settings: SwapdeskRouterSettings
): Promise<Address> => {
  const hash = await client.deployContract({
    abi: swapdeskRouterAbi,
    bytecode: swapdeskRouterBytecode,
    args: [settings.router, settings.weth, settings.executor, settings.feeRecipient, settings.owner]
  })
  const receipt = await client.waitForTransactionReceipt({ hash })
  if (receipt.status !== "success" || receipt.contractAddress == null) {
    throw new Error(`SwapdeskRouter deployment ${hash} failed (${receipt.status})`)
  }
  return getAddress(receipt.contractAddress)
}
