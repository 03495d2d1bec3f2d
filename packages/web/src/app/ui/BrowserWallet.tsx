/**
 * The browser wallet's line on the live trading screens: "Connect wallet" until the wallet has
 * given an account, then that account and its chain, with a switch to the chain the server gives
 * the chosen network when the wallet is on another. The code that talks to the wallet is loaded on
 * the first click. Shown in live mode only: on the simulator every wallet is the server's.
 */
import { useSignal } from "@preact/signals"
import { short } from "../Format.ts"
import { loadWallet } from "../wallet/LoadWallet.ts"
import { chainIdOf, hasBrowserWallet, isLive, walletAccount, walletChainId } from "../wallet/WalletState.ts"
import { ErrorBox } from "./States.tsx"

export const BrowserWallet = ({ network }: { readonly network: string }) => {
  const busy = useSignal(false)
  const error = useSignal<unknown>(null)
  if (!isLive()) return null
  const account = walletAccount.value
  const chain = walletChainId.value
  const expected = chainIdOf(network)

  const run = async (act: (wallet: Awaited<ReturnType<typeof loadWallet>>) => Promise<unknown>) => {
    if (busy.value) return
    busy.value = true
    error.value = null
    try {
      await act(await loadWallet())
    } catch (failure) {
      error.value = failure
    } finally {
      busy.value = false
    }
  }

  return (
    <div class="browser-wallet" role="group" aria-label="Browser wallet">
      {account === null
        ? (
          <>
            <button type="button" class="secondary" aria-busy={busy.value} onClick={() => void run((wallet) => wallet.connect())}>
              Connect wallet
            </button>
            <small class="muted">
              {hasBrowserWallet()
                ? "For a wallet you sign with yourself: its trades and orders are sent from your browser wallet. A wallet the server signs for needs nothing here."
                : "No browser wallet found. A wallet the server signs for needs none."}
            </small>
          </>
        )
        : (
          <p>
            Wallet <code title={account}>{short(account, 6)}</code> connected
            {chain === null ? null : <>, on chain {chain}{chain === expected ? ` (${network})` : null}</>}
          </p>
        )}
      {account !== null && expected !== undefined && chain !== expected
        ? (
          <button
            type="button"
            class="secondary"
            aria-busy={busy.value}
            onClick={() => void run((wallet) => wallet.switchChain(expected, network))}
          >
            Switch wallet to {network}
          </button>
        )
        : null}
      <ErrorBox error={error.value} title="Wallet" />
    </div>
  )
}
