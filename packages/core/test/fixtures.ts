// Records for the core's tests: one valid record of each kind, overridable field by field, so that a test states only
// the fields it is about.
import { fc } from "@fast-check/vitest"
import type { AlertRecord, AlertRule } from "../src/Alert.ts"
import type { Network } from "../src/Network.ts"
import type { OrderRecord } from "../src/Order.ts"
import type { TradeRecord } from "../src/Trade.ts"

/** 2026-01-01T00:00:00.000Z, the scenario start the contract's example uses. */
export const T0 = Date.UTC(2026, 0, 1)

export const makeAlert = (overrides: Partial<AlertRecord> = {}): AlertRecord => ({
  id: "alrt_1",
  accountId: "acct_alice",
  rule: { type: "price", token: "SOL", condition: "above", targetPrice: 150 },
  channel: "email",
  status: "active",
  createdAt: T0,
  triggeredAt: null,
  armedAt: T0,
  ...overrides
})

/** A 1 SOL -> USDC trade on solana, quoted at 150 USDC gross, waiting for its wallet's approval. */
export const makeTrade = (overrides: Partial<TradeRecord> = {}): TradeRecord => ({
  id: "trd_1",
  accountId: "acct_alice",
  stage: "awaiting_approval",
  network: "solana",
  tokenIn: "SOL",
  tokenOut: "USDC",
  amountIn: 1_000_000_000n,
  estimatedAmountOut: 149_625_000n,
  fee: 375_000n,
  minAmountOut: 148_876_875n,
  slippage: 0.5,
  walletAddress: "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU",
  createdAt: T0,
  txHash: null,
  submittedAt: null,
  confirmedAt: null,
  amountOut: null,
  gasFee: null,
  estimatedGasFee: 5_000n,
  failureReason: null,
  orderId: null,
  ...overrides
})

/** An open order selling 1 SOL for at least 160 USDC. */
export const makeOrder = (overrides: Partial<OrderRecord> = {}): OrderRecord => ({
  id: "ord_1",
  accountId: "acct_alice",
  status: "pending",
  network: "solana",
  tokenIn: "SOL",
  tokenOut: "USDC",
  amountIn: 1_000_000_000n,
  minAmountOut: 160_000_000n,
  walletAddress: "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU",
  signer: "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU",
  signature: "sig_1",
  createdAt: T0,
  expiresAt: null,
  tradeId: null,
  closedAt: null,
  ...overrides
})

/** Alert rules of every type on `tokens`, their thresholds drawn from `grid`. */
export const alertRuleArb = (tokens: ReadonlyArray<string>, grid: fc.Arbitrary<number>): fc.Arbitrary<AlertRule> =>
  fc.oneof(
    fc.record({
      type: fc.constant("price" as const),
      token: fc.constantFrom(...tokens),
      condition: fc.constantFrom("above" as const, "below" as const),
      targetPrice: grid
    }),
    fc.record({ type: fc.constant("whale" as const), token: fc.constantFrom(...tokens), minValueUsd: grid }),
    fc.record({ type: fc.constant("volume" as const), token: fc.constantFrom(...tokens), multiplier: grid }),
    fc.record({ type: fc.constant("portfolio" as const), changePercent: grid })
  )

/** Three pairs for the order book's tests: two directions of one pool, and another network's. */
export const orderPairs = [
  { network: "solana" as Network, tokenIn: "SOL", tokenOut: "USDC" },
  { network: "solana" as Network, tokenIn: "USDC", tokenOut: "SOL" },
  { network: "ethereum" as Network, tokenIn: "ETH", tokenOut: "USDC" }
]
