/**
 * What a wallet signs when it places a limit order, so that anyone can verify an order with a
 * standard library (docs/orders.md, "Signing"): on `solana` an ed25519 signature over a canonical
 * UTF-8 message, on the EVM networks a secp256k1 signature over an EIP-712 digest. This module
 * builds the exact payload; the curves and hashes live behind the `OrderSigner` port, so the core
 * stays free of cryptography libraries.
 */
import { Context, type Effect } from "effect"
import type { Network } from "./Network.ts"
import type { TokenCatalog } from "./TokenRegistry.ts"

/** The terms of an order that its signature covers. */
export interface OrderTerms {
  readonly id: string
  readonly network: Network
  /** Registry symbols; the payload names them by their contract (mint) address on `network`. */
  readonly tokenIn: string
  readonly tokenOut: string
  /** Base units. */
  readonly amountIn: bigint
  readonly minAmountOut: bigint
  /** Milliseconds since the epoch on a whole second, or null: signed as Unix seconds, 0 when absent. */
  readonly expiresAt: number | null
}

/** Who signed an order and the signature, as the order view shows them. */
export interface OrderSignature {
  /** A base58 ed25519 public key on solana; a checksummed address on the EVM networks. */
  readonly signer: string
  /** Base58 of the 64-byte signature on solana; 0x-hex of the 65 bytes r, s, v on the EVM networks. */
  readonly signature: string
}

/**
 * What signing an order at creation gives: a delegated wallet's (or the simulator's) signature, or,
 * for an external wallet, no signature yet and the payload its owner signs (docs/live.md,
 * "External wallets' limit orders").
 */
export interface OrderSigningOutcome {
  readonly signer: string
  /** Null when the wallet's owner signs later, over `typedData`. */
  readonly signature: string | null
  /** The contract named in the EIP-712 domain, on a live network. */
  readonly verifyingContract?: string | undefined
  /** The exact `eth_signTypedData_v4` payload, for an order created unsigned. */
  readonly typedData?: OrderTypedDataJson | undefined
  /** The approval the owner must give the contract for `tokenIn`, or null when it already has enough. */
  readonly allowance?: OrderAllowance | null | undefined
}

/** JSON's view of EIP-712 typed data: uint256 values as decimal strings, `chainId` a number. */
export interface OrderTypedDataJson {
  readonly types: {
    readonly EIP712Domain: ReadonlyArray<{ readonly name: string; readonly type: string }>
    readonly Order: ReadonlyArray<{ readonly name: string; readonly type: string }>
  }
  readonly primaryType: "Order"
  readonly domain: {
    readonly name: string
    readonly version: string
    readonly chainId: number
    readonly verifyingContract: string
  }
  readonly message: {
    readonly id: string
    readonly maker: string
    readonly tokenIn: string
    readonly tokenOut: string
    readonly amountIn: string
    readonly minAmountOut: string
    readonly expiresAt: string
  }
}

/** An ERC-20 approval the wallet must send: `required` and `current` in the token's base units. */
export interface OrderAllowance {
  readonly token: string
  readonly spender: string
  readonly required: bigint
  readonly current: bigint
}

/** The EIP-712 chain id of each EVM network. */
export const evmChainIds = { ethereum: 1, base: 8453, arbitrum: 42161 } as const

/** The EIP-712 domain's name and version. */
export const ORDER_DOMAIN = { name: "swapdesk", version: "1" } as const

/** The primary type, field by field, in the order `Order(string id,address maker,...)` lists them. */
export const ORDER_TYPES = {
  Order: [
    { name: "id", type: "string" },
    { name: "maker", type: "address" },
    { name: "tokenIn", type: "address" },
    { name: "tokenOut", type: "address" },
    { name: "amountIn", type: "uint256" },
    { name: "minAmountOut", type: "uint256" },
    { name: "expiresAt", type: "uint256" }
  ]
} as const

/** The prefix of the canonical solana message; a new layout would get a new version. */
export const SOLANA_ORDER_PREFIX = "swapdesk-order-v1"

/** The token's contract (mint) address on the order's network; the EVM native token's is 0xEeee…EEeE. */
const addressOn = (tokens: TokenCatalog, symbol: string, network: Network): string => {
  const address = tokens.tokenOf(symbol).addresses[network]
  // Terms are built from tokens resolved on this network: a miss is a defect.
  if (address === undefined) throw new Error(`${symbol} has no address on ${network}`)
  return address
}

/** `expiresAt` as the payload carries it: Unix seconds, 0 for an order that never expires. */
export const expiresAtSeconds = (expiresAt: number | null): bigint =>
  expiresAt === null ? 0n : BigInt(Math.floor(expiresAt / 1000))

/** The UTF-8 text an ed25519 key signs on solana; `tokens` gives the terms' mint addresses. */
export const solanaOrderMessage = (terms: OrderTerms, signer: string, tokens: TokenCatalog): string =>
  [
    SOLANA_ORDER_PREFIX,
    terms.id,
    signer,
    addressOn(tokens, terms.tokenIn, terms.network),
    addressOn(tokens, terms.tokenOut, terms.network),
    terms.amountIn.toString(),
    terms.minAmountOut.toString(),
    expiresAtSeconds(terms.expiresAt).toString()
  ].join(":")

/** The EIP-712 typed data a secp256k1 key signs on an EVM network (the shape viem and ethers take). */
export interface OrderTypedData {
  readonly domain: { readonly name: string; readonly version: string; readonly chainId: number }
  readonly types: typeof ORDER_TYPES
  readonly primaryType: "Order"
  readonly message: {
    readonly id: string
    readonly maker: string
    readonly tokenIn: string
    readonly tokenOut: string
    readonly amountIn: bigint
    readonly minAmountOut: bigint
    readonly expiresAt: bigint
  }
}

/** The typed data of `terms` signed by `signer`; `tokens` gives the terms' contract addresses. */
export const orderTypedData = (terms: OrderTerms, signer: string, tokens: TokenCatalog): OrderTypedData => {
  if (terms.network === "solana") throw new Error("solana orders are not EIP-712 typed data")
  return {
    domain: { ...ORDER_DOMAIN, chainId: evmChainIds[terms.network] },
    types: ORDER_TYPES,
    primaryType: "Order",
    message: {
      id: terms.id,
      maker: signer,
      tokenIn: addressOn(tokens, terms.tokenIn, terms.network),
      tokenOut: addressOn(tokens, terms.tokenOut, terms.network),
      amountIn: terms.amountIn,
      minAmountOut: terms.minAmountOut,
      expiresAt: expiresAtSeconds(terms.expiresAt)
    }
  }
}

/**
 * Port: the wallet's signature over an order at creation, and its verification before any fill.
 * The simulator signs with a key pair per wallet derived from the scenario seed; a production
 * wallet adapter would ask the user's wallet (or its delegated signing key).
 */
export class OrderSigner extends Context.Service<OrderSigner, {
  /**
   * The account's wallet on `terms.network` signs the order, or, when only its owner can sign,
   * answers the payload to sign (`signature: null`).
   */
  readonly sign: (accountId: string, terms: OrderTerms) => Effect.Effect<OrderSigningOutcome>
  /**
   * Whether `signed.signer` is the key that signs for the account's wallet on `terms.network` and
   * `signed.signature` is its signature over exactly these terms.
   */
  readonly verify: (accountId: string, terms: OrderTerms, signed: OrderSignature) => Effect.Effect<boolean>
}>()("@swapdesk/core/OrderSigner") {}
