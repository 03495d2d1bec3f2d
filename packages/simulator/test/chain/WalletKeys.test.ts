// Proves the simulated wallets' order signatures are what docs/orders.md says a real wallet produces, by checking them
// with implementations independent of the signer's: node:crypto's ed25519 over the canonical solana message, and
// ethers' EIP-712 `verifyTypedData` (its own ABI encoding and hashing) recovering the signer on the EVM networks. It
// also proves keys derive from the seed (same seed, same keys; another seed, other keys) and that a tampered term, a
// foreign signer or garbage never verifies.
import { assert, describe, it } from "@effect/vitest"
import { base58 } from "@scure/base"
import { type OrderTerms, orderTypedData, simulatorCatalog, solanaOrderMessage } from "@swapdesk/core"
import { getAddress, verifyTypedData } from "ethers"
import { createPublicKey, verify } from "node:crypto"
import { WalletKeys } from "../../src/chain/WalletKeys.ts"

const solanaTerms: OrderTerms = {
  id: "ord_abc",
  network: "solana",
  tokenIn: "SOL",
  tokenOut: "USDC",
  amountIn: 1_500_000_000n,
  minAmountOut: 300_000_000n,
  expiresAt: Date.parse("2026-01-08T00:00:00Z")
}

const evmTerms = (network: "ethereum" | "base" | "arbitrum"): OrderTerms => ({
  id: "ord_evm",
  network,
  tokenIn: "ETH",
  tokenOut: "USDC",
  amountIn: 10n ** 18n,
  minAmountOut: 3_000_000_000n,
  expiresAt: null
})

/** An ed25519 public key as node:crypto takes it: the raw 32 bytes behind the fixed SPKI prefix. */
const ed25519Key = (raw: Uint8Array) =>
  createPublicKey({
    key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), Buffer.from(raw)]),
    format: "der",
    type: "spki"
  })

describe("solana orders: ed25519 over the canonical message", () => {
  const keys = new WalletKeys(7)
  const signed = keys.sign("acct_alice", solanaTerms)

  it("the message is exactly the documented text", () => {
    assert.strictEqual(
      solanaOrderMessage(solanaTerms, signed.signer, simulatorCatalog),
      `swapdesk-order-v1:ord_abc:${signed.signer}:So11111111111111111111111111111111111111112:` +
        "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v:1500000000:300000000:1767830400"
    )
  })

  it("node:crypto verifies the signature with the signer's public key", () => {
    const publicKey = base58.decode(signed.signer)
    assert.strictEqual(publicKey.length, 32)
    const signature = base58.decode(signed.signature)
    assert.strictEqual(signature.length, 64)
    const message = Buffer.from(solanaOrderMessage(solanaTerms, signed.signer, simulatorCatalog), "utf8")
    assert.isTrue(verify(null, message, ed25519Key(publicKey), signature))
    assert.isFalse(verify(null, Buffer.concat([message, Buffer.from("x")]), ed25519Key(publicKey), signature))
  })

  it("verifies its own signature and nothing else", () => {
    assert.isTrue(keys.verify("acct_alice", solanaTerms, signed))
    assert.isFalse(keys.verify("acct_alice", { ...solanaTerms, minAmountOut: 299_999_999n }, signed))
    assert.isFalse(keys.verify("acct_bob", solanaTerms, signed), "another account's key")
    assert.isFalse(keys.verify("acct_alice", solanaTerms, { ...signed, signature: "1111" }))
    assert.isFalse(keys.verify("acct_alice", solanaTerms, { ...signed, signature: "not base58 0OIl" }))
  })
})

describe("EVM orders: secp256k1 over the EIP-712 digest", () => {
  const keys = new WalletKeys(7)
  for (const [network, chainId] of [["ethereum", 1], ["base", 8453], ["arbitrum", 42161]] as const) {
    it(`ethers recovers the signer on ${network} (chain id ${chainId})`, () => {
      const terms = evmTerms(network)
      const signed = keys.sign("acct_alice", terms)
      assert.strictEqual(signed.signer, getAddress(signed.signer), "a checksummed address")
      assert.match(signed.signature, /^0x[0-9a-f]{130}$/)
      const typed = orderTypedData(terms, signed.signer, simulatorCatalog)
      assert.deepStrictEqual(typed.domain, { name: "swapdesk", version: "1", chainId })
      const types = { Order: typed.types.Order.map((field) => ({ ...field })) }
      assert.strictEqual(verifyTypedData(typed.domain, types, typed.message, signed.signature), signed.signer)
      assert.notStrictEqual(
        verifyTypedData(typed.domain, types, { ...typed.message, amountIn: 2n * 10n ** 18n }, signed.signature),
        signed.signer
      )
      assert.strictEqual(typed.message.tokenIn, "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE", "native ETH")
      assert.strictEqual(typed.message.expiresAt, 0n, "no expiry is 0")
      assert.isTrue(keys.verify("acct_alice", terms, signed))
      assert.isFalse(keys.verify("acct_alice", { ...terms, id: "ord_other" }, signed))
    })
  }

  it("one key signs on every EVM network, as a real wallet does", () => {
    assert.strictEqual(keys.signerOf("acct_alice", "ethereum"), keys.signerOf("acct_alice", "arbitrum"))
  })

  it("a wrong recovery byte or garbage never verifies", () => {
    const terms = evmTerms("base")
    const signed = keys.sign("acct_alice", terms)
    const flipped = signed.signature.slice(0, -2) + (signed.signature.endsWith("1b") ? "1c" : "1b")
    assert.isFalse(keys.verify("acct_alice", terms, { ...signed, signature: flipped }))
    assert.isFalse(keys.verify("acct_alice", terms, { ...signed, signature: "0x1234" }))
  })
})

describe("keys derive from the seed", () => {
  it("same seed, same keys and signatures; another seed, other keys", () => {
    const a = new WalletKeys(7)
    const b = new WalletKeys(7)
    const c = new WalletKeys(8)
    assert.deepStrictEqual(a.sign("acct_alice", solanaTerms), b.sign("acct_alice", solanaTerms))
    assert.deepStrictEqual(a.sign("acct_alice", evmTerms("ethereum")), b.sign("acct_alice", evmTerms("ethereum")))
    assert.notStrictEqual(a.signerOf("acct_alice", "solana"), c.signerOf("acct_alice", "solana"))
    assert.notStrictEqual(a.signerOf("acct_alice", "solana"), a.signerOf("acct_bob", "solana"))
  })
})
