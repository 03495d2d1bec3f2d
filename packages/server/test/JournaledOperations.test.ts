// Proves that the table of journaled calls keeps the journal's format: every call the journal has
// ever named is in it once, each call's arguments encode to the JSON a journal written before the
// table holds (the same keys, in the same order, the `Idempotency-Key` claim last), and decode
// back to the same call; and that an entry that does not decode, or names an unknown call, is
// refused naming its sequence number, its call and what was found, before anything is replayed.
import { assert, describe, it } from "@effect/vitest"
import type { JournalEntry } from "@swapdesk/store"
import {
  decodeJournal,
  journalArguments,
  type JournaledOperation,
  JournaledOperations,
  JournalEntryRefused
} from "../src/JournaledOperations.ts"

const claim = { key: "k-1", fingerprint: "f".repeat(64), claimedAt: 1_767_225_600_000 }
const trade = { tokenIn: "SOL", tokenOut: "USDC", amountIn: "1.5", slippage: 1, network: "solana" } as const
const order = {
  tokenIn: "SOL",
  tokenOut: "USDC",
  amountIn: "1",
  minAmountOut: "150",
  network: "solana",
  expiresAt: "2026-01-08T00:00:00Z"
} as const

/** Each call as the journal stored it before the table: its name, then its arguments object. */
const stored: ReadonlyArray<readonly [string, unknown]> = [
  ["trades.create", { accountId: "acct_alice", body: trade }],
  ["trades.decide", { tradeId: "trd_1", approve: true }],
  ["orders.create", { accountId: "acct_alice", body: order }],
  ["orders.cancel", { accountId: "acct_alice", id: "ord_1" }],
  ["alerts.create", {
    accountId: "acct_alice",
    body: { type: "price", token: "SOL", condition: "above", targetPrice: 200, channel: "email" }
  }],
  ["alerts.setStatus", { accountId: "acct_alice", id: "alr_1", status: "disabled" }],
  ["alerts.remove", { accountId: "acct_alice", id: "alr_1" }],
  ["apiKeys.create", {
    caller: { accountId: "acct_alice", scopes: ["read", "account"] },
    body: { name: "bot", scopes: ["read"], expiresAt: "2026-07-01T00:00:00Z" }
  }],
  ["apiKeys.revoke", { accountId: "acct_alice", id: "key_1" }],
  ["webhooks.create", {
    accountId: "acct_alice",
    body: { url: "http://127.0.0.1:4000/hooks", events: ["trade.confirmed"] }
  }],
  ["webhooks.remove", { accountId: "acct_alice", id: "whk_1" }],
  ["notifications.update", { accountId: "acct_alice", body: { email: null, telegram: { chatId: "123456789" } } }],
  ["control.advance", { ms: 60_000 }],
  ["control.advanceTo", { targetMs: 1_767_225_660_000 }],
  ["control.setPrice", { token: "SOL", priceUsd: 151.25 }],
  ["control.injectFault", { network: "solana", kind: "congestion", durationMs: 30_000 }],
  ["control.whale", { token: "SOL", network: "solana", valueUsd: 2_000_000 }]
]

// The stored arguments are plain data here, as a journal holds them: each call's schema checks them.
const operations = Object.values(JournaledOperations) as ReadonlyArray<unknown> as ReadonlyArray<
  JournaledOperation<unknown, unknown, unknown>
>
const operationNamed = (name: string) => operations.find((operation) => operation.name === name)!

const entry = (seq: number, op: string, args: unknown): JournalEntry => ({ seq, at: 1_767_225_600_000, op, args })

/** Why `entries` cannot be replayed. */
const refusal = (entries: ReadonlyArray<JournalEntry>) => {
  try {
    decodeJournal(entries)
  } catch (error) {
    if (error instanceof JournalEntryRefused) return error
    throw error
  }
  return assert.fail("decoded")
}

describe("the journaled calls", () => {
  it("are every call the journal has named, each once", () => {
    assert.deepStrictEqual(operations.map((operation) => operation.name).sort(), stored.map(([name]) => name).sort())
  })

  it("encode their arguments to the JSON the journal has stored, and decode back to the same call", () => {
    for (const [name, args] of stored) {
      const operation = operationNamed(name)
      assert.strictEqual(JSON.stringify(journalArguments(operation, args, undefined)), JSON.stringify(args), name)
      const [decoded] = decodeJournal([entry(7, name, args)])
      assert.strictEqual(decoded?.claim, undefined, name)
    }
  })

  it("carry the Idempotency-Key claim last, and answer it for the account of a call a key covers", () => {
    for (const [name, args] of stored) {
      const journaled = journalArguments(operationNamed(name), args, claim)
      assert.strictEqual(JSON.stringify(journaled), JSON.stringify({ ...(args as object), idempotency: claim }), name)
      const [decoded] = decodeJournal([entry(7, name, journaled)])
      const covered = name === "trades.create" || name === "orders.create"
      assert.deepStrictEqual(decoded?.claim, covered ? { accountId: "acct_alice", claim } : undefined, name)
    }
  })

  it("refuse an entry that no longer decodes, naming it, its call and what was found", () => {
    const good = entry(1, "control.advance", { ms: 1 })
    const badAmount = refusal([
      good,
      entry(2, "trades.create", { accountId: "acct_alice", body: { ...trade, amountIn: 1.5 } })
    ])
    assert.strictEqual(badAmount.seq, 2)
    assert.strictEqual(badAmount.op, "trades.create")
    assert.strictEqual(
      badAmount.message,
      "journal entry 2 (trades.create) no longer decodes (body.amountIn: send amounts as decimal strings, e.g. \"1.5\" (found 1.5))"
    )
    const badClaim = refusal([
      entry(3, "orders.create", { accountId: "acct_alice", body: order, idempotency: { key: 1 } })
    ])
    assert.match(
      badClaim.message,
      /^journal entry 3 \(orders\.create\) no longer decodes \(idempotency\.key: Expected string \(found 1\)\)$/
    )
    const missing = refusal([entry(4, "control.whale", { token: "SOL", network: "solana" })])
    assert.strictEqual(missing.message, "journal entry 4 (control.whale) no longer decodes (valueUsd: Missing key)")
    const unknown = refusal([good, entry(5, "trades.settle", {})])
    assert.strictEqual(unknown.message, "journal entry 5 (trades.settle) is a call this server does not know")
  })
})
