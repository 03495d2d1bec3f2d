/**
 * A private key given as text (an environment variable's value), checked in one place for every
 * key the project reads: the delegated wallets', the executors' and the deployer's. The key is
 * `Redacted` from the moment it is read, and a problem never quotes the value.
 */
import { Redacted } from "effect"
import type { Address, Hex } from "viem"
import { privateKeyToAccount } from "viem/accounts"

/** The key and its address, or why the text is not a usable key. */
export type PrivateKeyText =
  | { readonly _tag: "Key"; readonly key: Redacted.Redacted<Hex>; readonly address: Address }
  | { readonly _tag: "Problem"; readonly reason: string }

const privateKeyPattern = /^0x[0-9a-fA-F]{64}$/

/**
 * Reads the key `variable` holds (`text`, with or without its `0x`): a `Problem` when it is absent
 * or blank, is not 32 bytes of hex, or is not a valid secp256k1 key.
 */
export const readPrivateKeyText = (variable: string, text: string | undefined): PrivateKeyText => {
  const trimmed = text?.trim()
  if (trimmed === undefined || trimmed === "") return { _tag: "Problem", reason: "is not set" }
  const hex = (trimmed.startsWith("0x") ? trimmed : `0x${trimmed}`) as Hex
  if (!privateKeyPattern.test(hex)) return { _tag: "Problem", reason: "is not a private key (32 bytes of hex)" }
  try {
    const address = privateKeyToAccount(hex).address
    return { _tag: "Key", key: Redacted.make(hex, { label: variable }), address }
  } catch {
    return { _tag: "Problem", reason: "is not a valid secp256k1 private key" }
  }
}
