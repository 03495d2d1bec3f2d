/**
 * The simulated wallets' signing keys and the order signatures they make (docs/orders.md,
 * "Signing"). Each account has one ed25519 key for solana and one secp256k1 key for the EVM
 * networks (one key, one address, on every EVM chain, as a real wallet has), each derived from the
 * scenario seed: `SHA-256("swapdesk-wallet-key/v1/{seed}/{accountId}/{solana|evm}")`, rehashed with
 * a counter in the vanishing case that it is not a valid secp256k1 scalar. The same scenario gives
 * the same keys, so a run's signatures replay byte for byte.
 *
 * The cryptography is the audited noble libraries (ed25519, secp256k1, SHA-256, base58) and viem's
 * EIP-712 hashing and address checksums; nothing here is hand-written crypto.
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js"
import { base58 } from "@scure/base"
import {
  type Network,
  type OrderSignature,
  type OrderTerms,
  orderTypedData,
  simulatorCatalog,
  solanaOrderMessage
} from "@swapdesk/core"
import { hashTypedData } from "viem"
import { privateKeyToAddress } from "viem/accounts"

/** A wallet family's key: solana wallets sign with ed25519, EVM wallets with secp256k1. */
interface WalletKey {
  readonly secretKey: Uint8Array
  /** Compressed secp256k1 or raw ed25519 public key. */
  readonly publicKey: Uint8Array
  /** Base58 public key (solana) or checksummed address (EVM): the order's `signer`. */
  readonly signer: string
}

export type KeyFamily = "solana" | "evm"

export const keyFamilyOf = (network: Network): KeyFamily => network === "solana" ? "solana" : "evm"

const utf8 = new TextEncoder()

/** The 32-byte secret of an account's key of one family, from the scenario seed. */
export const deriveSecretKey = (seed: string | number, accountId: string, family: KeyFamily): Uint8Array => {
  const base = `swapdesk-wallet-key/v1/${seed}/${accountId}/${family}`
  let secret = sha256(utf8.encode(base))
  if (family === "solana") return secret
  for (let counter = 1; !secp256k1.utils.isValidSecretKey(secret); counter++) {
    secret = sha256(utf8.encode(`${base}/${counter}`))
  }
  return secret
}

const makeKey = (secretKey: Uint8Array, family: KeyFamily): WalletKey => {
  if (family === "solana") {
    const publicKey = ed25519.getPublicKey(secretKey)
    return { secretKey, publicKey, signer: base58.encode(publicKey) }
  }
  return {
    secretKey,
    publicKey: secp256k1.getPublicKey(secretKey, true),
    signer: privateKeyToAddress(`0x${bytesToHex(secretKey)}`)
  }
}

/** The EIP-712 digest of an EVM order, as bytes. */
const evmDigest = (terms: OrderTerms, signer: string): Uint8Array =>
  hexToBytes(
    hashTypedData(orderTypedData(terms, signer, simulatorCatalog) as Parameters<typeof hashTypedData>[0]).slice(2)
  )

/** Every account's keys, derived on first use and kept. */
export class WalletKeys {
  private readonly seed: string | number
  private readonly keys = new Map<string, WalletKey>()

  constructor(seed: string | number) {
    this.seed = seed
  }

  /** The `signer` of an account's wallets on `network`: who signs its orders there. */
  signerOf(accountId: string, network: Network): string {
    return this.keyOf(accountId, keyFamilyOf(network)).signer
  }

  /** The account's key signs the order on its network. */
  sign(accountId: string, terms: OrderTerms): OrderSignature {
    const key = this.keyOf(accountId, keyFamilyOf(terms.network))
    if (terms.network === "solana") {
      const signature = ed25519.sign(
        utf8.encode(solanaOrderMessage(terms, key.signer, simulatorCatalog)),
        key.secretKey
      )
      return { signer: key.signer, signature: base58.encode(signature) }
    }
    // noble's recovered format is (recovery, r, s); Ethereum writes r, s, then v = 27 + recovery.
    const recovered = secp256k1.sign(evmDigest(terms, key.signer), key.secretKey, {
      prehash: false,
      format: "recovered"
    })
    const ethereum = new Uint8Array(65)
    ethereum.set(recovered.subarray(1), 0)
    ethereum[64] = 27 + recovered[0]!
    return { signer: key.signer, signature: `0x${bytesToHex(ethereum)}` }
  }

  /**
   * Whether `signed` is the account's key's signature over exactly `terms`: the signer must be the
   * account's key for the network, and the signature must verify (on EVM: recover to that key).
   */
  verify(accountId: string, terms: OrderTerms, signed: OrderSignature): boolean {
    const key = this.keyOf(accountId, keyFamilyOf(terms.network))
    if (signed.signer !== key.signer) return false
    try {
      if (terms.network === "solana") {
        return ed25519.verify(
          base58.decode(signed.signature),
          utf8.encode(solanaOrderMessage(terms, signed.signer, simulatorCatalog)),
          key.publicKey
        )
      }
      if (!/^0x[0-9a-f]{130}$/.test(signed.signature)) return false
      const bytes = hexToBytes(signed.signature.slice(2))
      const v = bytes[64]!
      if (v !== 27 && v !== 28) return false
      const recovered = new Uint8Array(65)
      recovered[0] = v - 27
      recovered.set(bytes.subarray(0, 64), 1)
      const publicKey = secp256k1.recoverPublicKey(recovered, evmDigest(terms, signed.signer), { prehash: false })
      return bytesToHex(publicKey) === bytesToHex(key.publicKey)
    } catch {
      // Bytes that do not even decode as a signature verify nothing.
      return false
    }
  }

  private keyOf(accountId: string, family: KeyFamily): WalletKey {
    const id = `${accountId}\u0000${family}`
    let key = this.keys.get(id)
    if (key === undefined) this.keys.set(id, key = makeKey(deriveSecretKey(this.seed, accountId, family), family))
    return key
  }
}
