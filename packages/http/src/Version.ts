/**
 * The service's version: what `/v1/health` reports and what the OpenAPI document states. Read from
 * the http package's own manifest, so that a release changes it in one place.
 */
import manifest from "../package.json" with { type: "json" }

export const VERSION: string = manifest.version
