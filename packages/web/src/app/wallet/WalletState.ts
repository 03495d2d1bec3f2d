/**
 * The browser wallet as the screens see it: whether the page has one (an EIP-1193 provider at
 * `window.ethereum`), the account it connected and the chain it is on. What talks to it is
 * `ExternalWallet.ts`, loaded only when a live screen needs it (`LoadWallet.ts`), so the sign-in
 * page's first load carries none of it (docs/live.md, "Connecting a browser wallet").
 */
import { signal } from "@preact/signals"
import type { Network } from "../api/Types.ts"
import { health } from "../Session.ts"

/** The account the wallet connected (checksummed as the wallet gave it), or null before `Connect wallet`. */
export const walletAccount = signal<string | null>(null)

/** The chain id the wallet is on, as last read or announced (`chainChanged`), or null before it connects. */
export const walletChainId = signal<number | null>(null)

/** Whether the page has an EIP-1193 provider to connect. */
export const hasBrowserWallet = (): boolean => (globalThis as { ethereum?: unknown }).ethereum !== undefined

/** The chain id the server gives `network` in live mode (`GET /v1/health`), or undefined when it names none. */
export const chainIdOf = (network: Network | string): number | undefined => health.value?.networks?.[network]?.chainId

/** Whether the server runs live, where the trades of a wallet without a delegated key are signed in the browser. */
export const isLive = (): boolean => health.value?.backend === "live"
