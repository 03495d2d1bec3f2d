/**
 * The core's `SecretHasher` on Node's crypto: SHA-256 as lower-case hex, by one-shot `hash` rather
 * than a `createHash` chain, as authentication hashes the key of every request that carries one.
 */
import { SecretHasher } from "@swapdesk/core"
import { Layer } from "effect"
import { hash } from "node:crypto"

/** A secret's SHA-256 as lower-case hex, as `SecretHasher` states it. */
export const sha256Hex = (secret: string): string => hash("sha256", secret, "hex")

/** `SecretHasher` by Node's crypto: provide it to the key use cases and the authentication alike. */
export const NodeSecretHasher: Layer.Layer<SecretHasher> = Layer.succeed(SecretHasher, { sha256Hex })
