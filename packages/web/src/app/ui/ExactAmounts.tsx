/**
 * A trade's amounts to every digit, as text to select and copy: the screens show amounts short
 * (`Amount`), and a user reconciling a trade against a wallet or an explorer needs the exact ones.
 */
import type { Trade } from "../api/Types.ts"

/** A trade's amounts to every digit, as text to select and copy (the cards above read them short). */
export const ExactAmounts = ({ trade }: { readonly trade: Trade }) => {
  const out = trade.amountOut ?? trade.estimatedAmountOut
  return (
    <details class="exact-amounts">
      <summary>Exact amounts</summary>
      <dl>
        <dt>Amount in</dt>
        <dd><code class="wrap">{trade.amountIn} {trade.tokenIn}</code></dd>
        {out === undefined ? null : (
          <>
            <dt>{trade.amountOut === undefined ? "Estimated out" : "Received"}</dt>
            <dd><code class="wrap">{out} {trade.tokenOut}</code></dd>
          </>
        )}
        <dt>Fee</dt>
        <dd><code class="wrap">{trade.fee} {trade.tokenOut}</code></dd>
      </dl>
    </details>
  )
}
