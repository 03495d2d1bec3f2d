/**
 * `IdGenerator` from the operating system's CSPRNG (`node:crypto`): ids and secrets nobody can
 * guess (docs/reference/http-api.md, ids). Base62 characters are drawn without bias by rejecting
 * the bytes above the largest multiple of 62.
 */
import { BASE62, IdGenerator, idPrefixes } from "@swapdesk/core"
import { Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"

/** The random part of an id, as long as the simulator's. */
const ID_BODY_LENGTH = 20

/** 248 = 4 × 62: a byte below it maps onto the alphabet uniformly. */
const UNBIASED_BELOW = 248

/** `length` base62 characters from the CSPRNG. */
export const randomBase62 = (length: number): string => {
  let out = ""
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < UNBIASED_BELOW) out += BASE62[byte % 62]
      if (out.length === length) break
    }
  }
  return out
}

/** Fresh ids and tokens from the CSPRNG. */
export const layerRandomIds = Layer.succeed(IdGenerator, {
  next: (kind) => Effect.sync(() => idPrefixes[kind] + randomBase62(ID_BODY_LENGTH)),
  token: (length) => Effect.sync(() => randomBase62(length))
})
