/**
 * What a swap and a limit order both start with: the network, and the token and amount paid, in
 * signals the form owns. Another network keeps the pair where both tokens exist on it, else takes
 * its native token and USDC; choosing the other side's token flips the pair, as the user evidently
 * wants it there.
 */
import { type Signal, useSignal } from "@preact/signals"
import type { Network } from "../api/Types.ts"
import { nativeToken, offeredNetworks, tokensOn } from "../Tokens.ts"
import { AmountField } from "./AmountField.tsx"
import type { Balances } from "./Balances.ts"
import { SelectField } from "./Fields.tsx"
import { TokenPicker } from "./TokenPicker.tsx"

/** The pair a form trades and the amount of `tokenIn` it pays. */
export interface TokenPair {
  readonly network: Signal<Network>
  readonly tokenIn: Signal<string>
  readonly tokenOut: Signal<string>
  readonly amount: Signal<string>
}

/**
 * A token pair for `network`: the chosen ones where they exist there, else the native token and
 * USDC, else the first tokens the server lists there.
 */
export const pairOn = (network: Network, tokenIn: string, tokenOut: string): readonly [string, string] => {
  const listed = tokensOn(network).map((entry) => entry.symbol)
  const there = new Set(listed)
  const pick = (wanted: ReadonlyArray<string>, not?: string) =>
    wanted.find((symbol) => there.has(symbol) && symbol !== not) ?? listed.find((symbol) => symbol !== not) ?? wanted[0]!
  const first = pick([tokenIn, nativeToken(network)])
  const second = pick([tokenOut, "USDC", nativeToken(network)], first)
  return [first, second]
}

/** The pair a form opens on: SOL → USDC on solana where the server lists them, else the first network it lists tokens on. */
export const initialPair = (): { readonly network: Network; readonly tokenIn: string; readonly tokenOut: string } => {
  const offered = offeredNetworks()
  const network = offered.includes("solana") ? "solana" : offered[0]!
  const [tokenIn, tokenOut] = pairOn(network, "SOL", "USDC")
  return { network, tokenIn, tokenOut }
}

/** The pair a form owns, opening on `initialPair()` and paying 1 of `tokenIn`. */
export const useTokenPair = (): TokenPair => {
  const opening = initialPair()
  return {
    network: useSignal<Network>(opening.network),
    tokenIn: useSignal(opening.tokenIn),
    tokenOut: useSignal(opening.tokenOut),
    amount: useSignal("1"),
  }
}

/** Puts `symbol` on one side of the pair, flipping the pair when it is the other side's token. */
export const chooseToken = (pair: TokenPair, side: "in" | "out", symbol: string) => {
  const other = side === "in" ? pair.tokenOut : pair.tokenIn
  const mine = side === "in" ? pair.tokenIn : pair.tokenOut
  if (symbol === other.value) other.value = mine.value
  mine.value = symbol
}

/** The network picker and the paying leg: the token in, and the amount with its free balance. */
export const PayingFields = (props: {
  readonly pair: TokenPair
  readonly balances: Balances | undefined
  /** The free balance of the token in, in base units; undefined while it is not known. */
  readonly free: bigint | undefined
  /** Whether the server serves balances at all. */
  readonly balancesServed: boolean
  /** Why the amount cannot be used, or null. */
  readonly problem: string | null
}) => {
  const { network, tokenIn, tokenOut, amount } = props.pair
  return (
    <>
      <SelectField
        label="Network"
        value={network.value}
        options={offeredNetworks()}
        onChange={(value) => {
          const [first, second] = pairOn(value, tokenIn.value, tokenOut.value)
          network.value = value
          tokenIn.value = first
          tokenOut.value = second
        }}
      />
      <div class="leg">
        <TokenPicker label="Token in" value={tokenIn.value} network={network.value} balances={props.balances} onChange={(symbol) => chooseToken(props.pair, "in", symbol)} />
        <AmountField
          value={amount.value}
          symbol={tokenIn.value}
          network={network.value}
          free={props.free}
          balancesServed={props.balancesServed}
          problem={props.problem}
          onInput={(value) => (amount.value = value)}
        />
      </div>
    </>
  )
}
