/**
 * Transaction hashes and signatures that look like each network's real ones, drawn from a seeded
 * stream: EVM transaction hashes are `0x` and 64 lower-case hex digits (32 bytes), EVM signatures
 * 65 bytes (r, s, v) in hex; a solana transaction is identified by its first signature, 64 bytes in
 * base58 (87 or 88 characters; only 88-character ones are drawn, the common length, so that every
 * simulated id has one shape).
 */
import type { Network } from "@swapdesk/core"
import type { Prng } from "../Prng.ts"

const HEX = "0123456789abcdef"
const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

/** Base58 (bitcoin alphabet) of a byte string; leading zero bytes become leading "1"s. */
export const base58 = (bytes: ReadonlyArray<number>): string => {
  let value = 0n
  for (const byte of bytes) value = (value << 8n) + BigInt(byte)
  // Digits collected and joined once: a string built by prepending is a chain of one node per
  // character, and a transaction's id is kept with its trade for good (docs/performance.md#memory).
  const digits: Array<string> = []
  while (value > 0n) {
    digits.push(BASE58[Number(value % 58n)]!)
    value /= 58n
  }
  for (const byte of bytes) {
    if (byte !== 0) break
    digits.push("1")
  }
  return digits.toReversed().join("")
}

const randomBytes = (prng: Prng, length: number): Array<number> =>
  Array.from({ length }, () => prng.nextUint32() & 0xff)

/** A solana signature: 64 random bytes in base58, redrawn until it has the usual 88 characters. */
const solanaSignature = (prng: Prng): string => {
  for (;;) {
    const text = base58(randomBytes(prng, 64))
    if (text.length === 88) return text
  }
}

/** The id a network's explorers show for a transaction. */
export const transactionHash = (network: Network, prng: Prng): string =>
  network === "solana" ? solanaSignature(prng) : "0x" + prng.string(64, HEX)
