/**
 * The amount to spend, with the wallet's free balance under it and a Max button. Max spends the
 * whole free balance, except on the network's native token, where it leaves the documented gas
 * reserve (Tokens.ts, `gasReserve`). The reason an amount cannot be sent is shown beside the field.
 */
import type { Network } from "../api/Types.ts"
import { fromUnits, toUnits } from "../Amounts.ts"
import { gasReserve, nativeToken, tokenBySymbol } from "../Tokens.ts"
import { Amount } from "./Amount.tsx"
import { TextField } from "./Fields.tsx"

/** The most that may be spent of `symbol` from `free` base units: the gas reserve stays on the native token. */
export const maxSpend = (symbol: string, network: Network, free: bigint): bigint => {
  const decimals = tokenBySymbol(symbol)?.decimals ?? 0
  const reserve = symbol === nativeToken(network) ? toUnits(gasReserve[network], decimals) ?? 0n : 0n
  return free > reserve ? free - reserve : 0n
}

export const AmountField = (props: {
  readonly label?: string
  readonly value: string
  readonly symbol: string
  readonly network: Network
  /** The free balance in base units; undefined while it is not known. */
  readonly free: bigint | undefined
  /** Whether the server serves balances at all. */
  readonly balancesServed: boolean
  readonly problem: string | null
  readonly onInput: (value: string) => void
}) => {
  const decimals = tokenBySymbol(props.symbol)?.decimals ?? 0
  const native = props.symbol === nativeToken(props.network)
  const max = props.free === undefined ? undefined : maxSpend(props.symbol, props.network, props.free)
  const extra = !props.balancesServed ? null : (
    <div class="balance-line">
      <span>
        {props.free === undefined
          ? "Free balance: loading…"
          : <>Free balance: <Amount value={fromUnits(props.free, decimals)} symbol={props.symbol} /></>}
      </span>
      {max === undefined ? null : (
        <button
          type="button"
          class="link"
          disabled={max === 0n}
          aria-label={`Max: use ${fromUnits(max, decimals)} ${props.symbol}${native ? `, keeping ${gasReserve[props.network]} ${props.symbol} for gas` : ""}`}
          title={native ? `Keeps ${gasReserve[props.network]} ${props.symbol} for gas` : undefined}
          onClick={() => props.onInput(fromUnits(max, decimals))}
        >
          Max
        </button>
      )}
    </div>
  )
  return (
    <TextField
      label={props.label ?? "Amount"}
      value={props.value}
      onInput={props.onInput}
      inputMode="decimal"
      required
      problem={props.problem}
      extra={extra}
    />
  )
}
