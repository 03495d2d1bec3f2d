// Proves the wallet book's accounting: reserving is atomic and answers a shortfall instead of moving
// funds, releasing is exact and idempotent, settling and gas move funds only as the ledger records,
// and (a fast-check property over random operation sequences, pinned seed) the conservation
// invariant and non-negative balances hold after every operation; checkInvariants catches a break.
import { assert, describe, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { type Hold, InsufficientBalance } from "@swapdesk/core"
import { WalletBook, type WalletSpec } from "../../src/chain/WalletBook.ts"
import { ONE_SOL, ONE_USDC } from "./harness.ts"

const specs: ReadonlyArray<WalletSpec> = [
  {
    accountId: "acct_a",
    network: "solana",
    address: "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU",
    delegatedSigning: true,
    balances: { SOL: 2n * ONE_SOL, USDC: 100n * ONE_USDC }
  },
  {
    accountId: "acct_a",
    network: "ethereum",
    address: "0x00000000000000000000000000000000000000aa",
    delegatedSigning: false,
    balances: { ETH: 10n ** 18n }
  },
  {
    accountId: "acct_b",
    network: "solana",
    address: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
    delegatedSigning: false,
    balances: { USDC: 5n * ONE_USDC }
  }
]

const hold = (holdId: string, token: string, amount: bigint, accountId = "acct_a"): Hold => ({
  holdId,
  accountId,
  network: "solana",
  token,
  amount
})

describe("WalletBook", () => {
  it("lists wallets and balances as the scenario declared them", () => {
    const book = new WalletBook(specs)
    assert.deepStrictEqual(book.list("acct_a").map((w) => w.network), ["solana", "ethereum"])
    assert.strictEqual(book.wallet("acct_a", "ethereum")?.delegatedSigning, false)
    assert.isUndefined(book.wallet("acct_b", "base"))
    assert.deepStrictEqual(book.list("acct_nobody"), [])
    assert.deepStrictEqual([...book.balances("acct_a", "solana")], [
      ["SOL", { free: 2n * ONE_SOL, reserved: 0n }],
      ["USDC", { free: 100n * ONE_USDC, reserved: 0n }]
    ])
    assert.strictEqual(book.balances("acct_b", "base").size, 0)
  })

  it("refuses a bad scenario at construction", () => {
    const [first] = specs
    assert.throws(() => new WalletBook([first!, first!]), /two wallets/)
    assert.throws(() => new WalletBook([{ ...first!, balances: { NOPE: 1n } }]), /registry/)
    assert.throws(() => new WalletBook([{ ...first!, balances: { SOL: -1n } }]), /negative/)
  })

  it("reserves atomically and answers a shortfall without moving anything", () => {
    const book = new WalletBook(specs)
    assert.isUndefined(book.reserve(hold("trd_1", "USDC", 60n * ONE_USDC)))
    const refused = book.reserve(hold("trd_2", "USDC", 50n * ONE_USDC))
    assert.instanceOf(refused, InsufficientBalance)
    assert.strictEqual(refused?.required, "50")
    assert.strictEqual(refused?.available, "40")
    assert.deepStrictEqual(book.balances("acct_a", "solana").get("USDC"), {
      free: 40n * ONE_USDC,
      reserved: 60n * ONE_USDC
    })
    assert.isUndefined(book.hold("trd_2"))
    // A token the wallet never held, or no wallet at all: nothing is available.
    assert.strictEqual(book.reserve(hold("trd_3", "BONK", 1n))?.available, "0")
    assert.strictEqual(book.reserve({ ...hold("trd_4", "ETH", 1n), network: "base" })?.available, "0")
    assert.throws(() => book.reserve(hold("trd_1", "SOL", 1n)), /already open/)
    assert.throws(() => book.reserve(hold("trd_5", "SOL", 0n)), /positive/)
    book.checkInvariants()
  })

  it("releases exactly once; releasing an unknown hold is a no-op", () => {
    const book = new WalletBook(specs)
    book.reserve(hold("ord_1", "SOL", ONE_SOL))
    assert.isTrue(book.release("ord_1"))
    assert.isFalse(book.release("ord_1"))
    assert.isFalse(book.release("never"))
    assert.deepStrictEqual(book.balances("acct_a", "solana").get("SOL"), { free: 2n * ONE_SOL, reserved: 0n })
    book.checkInvariants()
  })

  it("settles a swap: the held input leaves, the output arrives in the same wallet", () => {
    const book = new WalletBook(specs)
    book.reserve(hold("trd_1", "USDC", 30n * ONE_USDC))
    book.settleSwap("trd_1", "BONK", 123_456n)
    assert.deepStrictEqual(book.balances("acct_a", "solana").get("USDC"), { free: 70n * ONE_USDC, reserved: 0n })
    assert.deepStrictEqual(book.balances("acct_a", "solana").get("BONK"), { free: 123_456n, reserved: 0n })
    const usdc = book.ledger().find((l) => l.accountId === "acct_a" && l.token === "USDC")
    assert.strictEqual(usdc?.sent, 30n * ONE_USDC)
    assert.throws(() => book.settleSwap("trd_1", "BONK", 1n), /no open hold/)
    book.checkInvariants()
  })

  it("transfers a hold to a new id without freeing its funds", () => {
    const book = new WalletBook(specs)
    book.reserve(hold("ord_1", "USDC", ONE_USDC))
    book.transferHold("ord_1", "trd_1")
    assert.isUndefined(book.hold("ord_1"))
    assert.strictEqual(book.hold("trd_1")?.amount, ONE_USDC)
    assert.strictEqual(book.balances("acct_a", "solana").get("USDC")?.reserved, ONE_USDC)
    assert.throws(() => book.transferHold("ord_1", "trd_2"))
    book.checkInvariants()
  })

  it("burns gas from free balance only, and refuses to overdraw it", () => {
    const book = new WalletBook(specs)
    book.reserve(hold("trd_1", "SOL", 2n * ONE_SOL - 5_000n))
    book.burnGas("acct_a", "solana", "SOL", 5_000n)
    assert.throws(() => book.burnGas("acct_a", "solana", "SOL", 1n), /cannot pay/)
    assert.deepStrictEqual(book.balances("acct_a", "solana").get("SOL"), { free: 0n, reserved: 2n * ONE_SOL - 5_000n })
    book.checkInvariants()
  })

  it("remembers the opening balances whatever moves later", () => {
    const book = new WalletBook(specs)
    const before = book.opening("acct_a", "solana")
    book.reserve(hold("trd_1", "SOL", ONE_SOL))
    book.settleSwap("trd_1", "USDC", 150_000_000n)
    assert.deepStrictEqual(book.opening("acct_a", "solana"), before)
    assert.strictEqual(before.get("USDC"), 100n * ONE_USDC)
    assert.strictEqual(book.opening("acct_nobody", "solana").size, 0)
  })

  it("checkInvariants catches reserved funds that no hold backs", () => {
    const book = new WalletBook(specs)
    book.reserve(hold("trd_1", "SOL", ONE_SOL)) // Reach past the API to break the books the way a bug would: forget a hold without freeing its funds.
    ;(book as unknown as { holds: Map<string, Hold> }).holds.delete("trd_1")
    assert.throws(() => book.checkInvariants(), /open holds sum to 0/)
  })
})

type Operation =
  | { readonly kind: "reserve"; readonly account: number; readonly token: number; readonly permille: number }
  | { readonly kind: "release"; readonly pick: number }
  | { readonly kind: "settle"; readonly pick: number; readonly token: number; readonly amount: bigint }
  | { readonly kind: "gas"; readonly account: number; readonly permille: number }

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    kind: fc.constant("reserve" as const),
    account: fc.nat(1),
    token: fc.nat(2),
    permille: fc.integer({ min: 1, max: 1200 })
  }),
  fc.record({ kind: fc.constant("release" as const), pick: fc.nat(20) }),
  fc.record({
    kind: fc.constant("settle" as const),
    pick: fc.nat(20),
    token: fc.nat(2),
    amount: fc.bigInt({ min: 0n, max: 10n ** 12n })
  }),
  fc.record({ kind: fc.constant("gas" as const), account: fc.nat(1), permille: fc.integer({ min: 0, max: 1200 }) })
)

const accounts = ["acct_a", "acct_b"] as const
const tokens = ["SOL", "USDC", "BONK"] as const

test.prop([fc.array(operation, { maxLength: 60 })], { seed: 20260101, numRuns: 200 })(
  "conservation and non-negative balances hold after every operation",
  (operations) => {
    const book = new WalletBook(specs)
    let next = 0
    for (const op of operations) {
      const open = book.openHolds()
      switch (op.kind) {
        case "reserve": {
          const accountId = accounts[op.account]!, token = tokens[op.token]!
          const free = book.free(accountId, "solana", token)
          const amount = (free * BigInt(op.permille)) / 1000n
          if (amount === 0n) break
          const before = book.balances(accountId, "solana").get(token)
          const refused = book.reserve(hold(`h${next++}`, token, amount, accountId))
          // Refused exactly when the free balance is short, and then nothing moved.
          assert.strictEqual(refused !== undefined, amount > free)
          if (refused !== undefined) assert.deepStrictEqual(book.balances(accountId, "solana").get(token), before)
          break
        }
        case "release": {
          const target = open[op.pick % Math.max(open.length, 1)]
          if (target !== undefined) book.release(target.holdId)
          break
        }
        case "settle": {
          const target = open[op.pick % Math.max(open.length, 1)]
          if (target !== undefined) book.settleSwap(target.holdId, tokens[op.token]!, op.amount)
          break
        }
        case "gas": {
          const accountId = accounts[op.account]!
          const free = book.free(accountId, "solana", "SOL")
          const amount = (free * BigInt(op.permille)) / 1000n
          if (amount > free) assert.throws(() => book.burnGas(accountId, "solana", "SOL", amount))
          else book.burnGas(accountId, "solana", "SOL", amount)
          break
        }
      }
      book.checkInvariants()
    }
    for (const line of book.ledger()) {
      assert.strictEqual(line.initial + line.received - line.sent - line.gasBurned, line.free + line.reserved)
    }
  }
)
