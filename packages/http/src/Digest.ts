/**
 * SHA-256 without a platform: noble's audited implementation, so that the contract runs wherever
 * JavaScript does. For digests off the hot path (a request's fingerprint, a page's inline script);
 * a key's hash is the core's `SecretHasher`, which a platform may implement natively.
 */
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js"

/** The SHA-256 of `text`'s UTF-8 bytes, as lower-case hex. */
export const sha256Hex = (text: string): string => bytesToHex(sha256(utf8ToBytes(text)))

/** The SHA-256 of `text`'s UTF-8 bytes, in base64 (as a Content-Security-Policy hash source states it). */
export const sha256Base64 = (text: string): string => btoa(String.fromCharCode(...sha256(utf8ToBytes(text))))
