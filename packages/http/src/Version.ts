/**
 * The service's version: what `/v1/health` reports and what the OpenAPI document states. The http
 * package's manifest is the source: `scripts/version.ts` writes it here when a release bumps the
 * manifests (docs/releasing.md), and `test/Version.test.ts` fails while the two differ. A constant
 * rather than a read of the manifest, so that the contract runs where no file system is.
 */
export const VERSION: string = "0.1.0"
