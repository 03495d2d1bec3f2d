/**
 * Port: the SHA-256 of an API key's secret, as lower-case hex: what is kept at rest instead of the
 * secret. A port so that the core names the hash without importing a cryptography library.
 */
import { Context } from "effect"

export class SecretHasher extends Context.Service<SecretHasher, {
  readonly sha256Hex: (secret: string) => string
}>()("@swapdesk/core/SecretHasher") {}
