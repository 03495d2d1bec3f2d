/**
 * @swapdesk/http/node: the contract on Node's HTTP server. What Node's server knows of a request
 * (`NodeServerPlatform`: its version, repeated header fields, the methods it parses), the answers
 * to requests Node's parser refuses (`ClientErrors`), stopping without dropping a request
 * (`gracefulShutdown`), and the core's `SecretHasher` by Node's crypto (`NodeSecretHasher`). The
 * main entry, `@swapdesk/http`, imports no Node module; this one is where Node's own pieces are.
 */
export { ClientErrors, type ClientErrorsOptions } from "./ClientErrors.ts"
export { type GracefulShutdown, gracefulShutdown, SHUTDOWN_LIMIT_MS } from "./GracefulShutdown.ts"
export { NodeSecretHasher, sha256Hex } from "./NodeSecretHasher.ts"
export { NodeServerPlatform } from "./NodeServerPlatform.ts"
