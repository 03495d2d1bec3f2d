/**
 * A token amount as every screen shows it (`amountText`: at most 6 decimals, never "0" for a
 * non-zero amount), with the exact amount in its title and in the `data` element's `value`, so a
 * pointer, a screen reader's description and a script all reach every digit.
 */
import { amountText, grouped } from "../Amounts.ts"

/** `value` (a decimal string as the API sends it) of `symbol`, shown short, exact in the title. */
export const Amount = ({ value, symbol }: { readonly value: string; readonly symbol: string }) => (
  <data class="amount" value={value} title={`${grouped(value)} ${symbol}`}>
    {amountText(value)} {symbol}
  </data>
)
