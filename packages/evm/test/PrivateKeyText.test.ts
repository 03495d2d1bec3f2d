// Proves the one reading of a private key from a variable's text that the delegated wallets, the
// executors and the deployer share: each way a text can fail gives its reason, a key is taken with
// or without its 0x and around white space, and the key read stays Redacted in strings and JSON.
import { Redacted } from "effect"
import { privateKeyToAccount } from "viem/accounts"
import { describe, expect, it } from "vitest"
import { readPrivateKeyText } from "../src/PrivateKeyText.ts"

const key = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"
const address = privateKeyToAccount(key).address

describe("readPrivateKeyText", () => {
  it("names why a text is not a usable key", () => {
    expect(readPrivateKeyText("KEY", undefined)).toEqual({ _tag: "Problem", reason: "is not set" })
    expect(readPrivateKeyText("KEY", "  ")).toEqual({ _tag: "Problem", reason: "is not set" })
    expect(readPrivateKeyText("KEY", key.slice(0, -2))).toEqual({
      _tag: "Problem",
      reason: "is not a private key (32 bytes of hex)"
    })
    expect(readPrivateKeyText("KEY", `0x${"zz".repeat(32)}`)).toEqual({
      _tag: "Problem",
      reason: "is not a private key (32 bytes of hex)"
    })
    // Hex of the right length, but zero is no secp256k1 key.
    expect(readPrivateKeyText("KEY", `0x${"00".repeat(32)}`)).toEqual({
      _tag: "Problem",
      reason: "is not a valid secp256k1 private key"
    })
  })

  it("takes a key with or without 0x and around white space, and keeps it redacted", () => {
    for (const text of [key, key.slice(2), `  ${key}\n`]) {
      const read = readPrivateKeyText("KEY", text)
      if (read._tag !== "Key") throw new Error(`${text} was refused: ${read.reason}`)
      expect(read.address).toBe(address)
      expect(Redacted.value(read.key)).toBe(key)
      expect(String(read.key)).not.toContain(key.slice(2))
      expect(JSON.stringify({ key: read.key })).not.toContain(key.slice(2))
    }
  })
})
