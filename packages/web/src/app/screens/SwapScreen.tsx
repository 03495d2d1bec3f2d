/**
 * Swap: tokens, amount, network and slippage; a live quote from `GET /v1/quote` refreshed as the
 * inputs change and every few seconds (output, fee, price impact, gas, minimum received, the
 * quote's expiry counting down); `POST /v1/trades` with an `Idempotency-Key` fixed for one set of
 * inputs, so a double click places one trade; then the trade followed until it is confirmed or
 * failed, saying so while it waits for the wallet's approval.
 */
import { useSignal } from "@preact/signals"
import { useEffect, useRef } from "preact/hooks"
import { call, get, newIdempotencyKey } from "../api/Api.ts"
import { type Network, networks, type Quote, type Trade } from "../api/Types.ts"
import { serverNow } from "../Clock.ts"
import { short, time } from "../Format.ts"
import { usePoll } from "../Live.ts"
import { isSimulator } from "../Session.ts"
import { Section, SelectField, Stat, TextField } from "../ui/Fields.tsx"
import { useResource } from "../ui/Resource.ts"
import { ErrorBox, Notice } from "../ui/States.tsx"

const QUOTE_REFRESH_MS = 10_000
const TYPING_PAUSE_MS = 350

/** Whether a pending trade still waits for the wallet (nothing broadcast yet). */
export const awaitsApproval = (trade: Trade): boolean =>
  trade.status === "pending" && (trade.txHash === undefined || trade.txHash === "")

export const TradeStatus = ({ trade }: { readonly trade: Trade }) => (
  <div class={`trade-status ${trade.status}`} role="status" aria-live="polite">
    <p>
      Trade <code>{trade.id}</code>:{" "}
      <strong>
        {trade.status === "pending"
          ? awaitsApproval(trade) ? "pending, awaiting your wallet's approval" : "pending, broadcast and awaiting confirmation"
          : trade.status}
      </strong>
      {trade.failureReason === undefined ? null : <> — reason <code>{trade.failureReason}</code></>}
    </p>
    <dl class="stats">
      <Stat label="Amount in" value={`${trade.amountIn} ${trade.tokenIn}`} />
      {trade.amountOut === undefined
        ? <Stat label="Estimated out" value={`${trade.estimatedAmountOut ?? "—"} ${trade.tokenOut}`} />
        : <Stat label="Received" value={`${trade.amountOut} ${trade.tokenOut}`} />}
      <Stat label="Fee" value={`${trade.fee} ${trade.tokenOut}`} />
      <Stat label="Network" value={trade.network} />
      {trade.txHash === undefined ? null : <Stat label="Transaction hash" value={short(trade.txHash, 10)} />}
      {trade.confirmedAt === undefined || trade.confirmedAt === null ? null : (
        <Stat label="Confirmed at" value={time(trade.confirmedAt)} />
      )}
    </dl>
  </div>
)

/** Decides a trade waiting for approval in the simulated wallet (simulator only). */
export const decideApproval = (tradeId: string, approve: boolean) =>
  call("POST", "/sim/approvals", { body: { tradeId, approve }, control: true })

export const SwapScreen = () => {
  const tokenIn = useSignal("SOL")
  const tokenOut = useSignal("USDC")
  const amount = useSignal("1")
  const network = useSignal<Network>("solana")
  const slippage = useSignal("0.5")
  const quote = useResource<Quote>()
  const submitting = useSignal(false)
  const submitError = useSignal<unknown>(null)
  const trade = useSignal<Trade | null>(null)
  const idempotency = useRef({ inputs: "", key: newIdempotencyKey() })

  const inputs = JSON.stringify([tokenIn.value, tokenOut.value, amount.value, network.value, slippage.value])
  const readQuote = () =>
    quote.load(() =>
      get<Quote>("/quote", {
        tokenIn: tokenIn.value.trim(),
        tokenOut: tokenOut.value.trim(),
        amountIn: amount.value.trim(),
        network: network.value,
        slippage: slippage.value.trim()
      })
    )

  // A new quote shortly after the user stops typing, then every few seconds.
  useEffect(() => {
    const timer = setTimeout(() => void readQuote(), TYPING_PAUSE_MS)
    return () => clearTimeout(timer)
  }, [inputs])
  usePoll(readQuote, QUOTE_REFRESH_MS, [inputs])

  // The trade followed until it settles.
  usePoll(
    async () => {
      const current = trade.value
      if (current === null || current.status !== "pending") return
      trade.value = await get<Trade>(`/trades/${current.id}`)
    },
    2_000,
    [trade.value?.id, trade.value?.status]
  )

  const submit = async () => {
    if (submitting.value) return
    // One key per set of inputs: a second click on the same swap replays the first answer.
    if (idempotency.current.inputs !== inputs) idempotency.current = { inputs, key: newIdempotencyKey() }
    submitting.value = true
    submitError.value = null
    try {
      const answer = await call<Trade>("POST", "/trades", {
        body: {
          tokenIn: tokenIn.value.trim(),
          tokenOut: tokenOut.value.trim(),
          amountIn: amount.value.trim(),
          network: network.value,
          slippage: Number(slippage.value)
        },
        idempotencyKey: idempotency.current.key
      })
      trade.value = answer.data
      trade.value = await get<Trade>(`/trades/${answer.data.id}`)
    } catch (error) {
      submitError.value = error
    } finally {
      submitting.value = false
    }
  }

  const q = quote.data
  const now = serverNow.value
  const secondsLeft = q === undefined || now === null ? null : Math.max(0, Math.round((Date.parse(q.expiresAt) - now) / 1000))
  const current = trade.value

  return (
    <div class="screen">
      <h1>Swap</h1>
      <div class="columns">
        <Section title="New swap">
          <form
            class="stack"
            aria-label="Swap"
            onSubmit={(event) => {
              event.preventDefault()
              void submit()
            }}
          >
            <TextField label="Token in" value={tokenIn.value} onInput={(value) => (tokenIn.value = value)} list="known-tokens" required />
            <TextField label="Token out" value={tokenOut.value} onInput={(value) => (tokenOut.value = value)} list="known-tokens" required />
            <TextField label="Amount" value={amount.value} onInput={(value) => (amount.value = value)} inputMode="decimal" required />
            <SelectField label="Network" value={network.value} options={networks} onChange={(value) => (network.value = value)} />
            <TextField
              label="Slippage (%)"
              value={slippage.value}
              onInput={(value) => (slippage.value = value)}
              inputMode="decimal"
              hint="The swap fails rather than give less than the minimum received."
            />
            <button type="submit" disabled={submitting.value} aria-busy={submitting.value}>
              Swap
            </button>
          </form>
          <ErrorBox error={submitError.value} title="Swap refused" />
        </Section>
        <Section title="Quote">
          <ErrorBox error={quote.error} />
          {q === undefined || quote.error !== null ? (quote.error === null ? <p class="state">Enter a swap to see a quote.</p> : null) : (
            <>
              <dl class="stats">
                <Stat label="You receive (estimated)" value={`${q.estimatedAmountOut} ${q.tokenOut}`} />
                <Stat label="Minimum received" value={`${q.minAmountOut} ${q.tokenOut}`} />
                <Stat label="Platform fee" value={`${q.fee} ${q.tokenOut}`} />
                <Stat label="Price impact" value={`${q.priceImpact}%`} />
                <Stat label="Gas" value={`${q.gasFee} ${q.network === "solana" ? "SOL" : "ETH"}`} />
                <Stat label="Rate" value={`1 ${q.tokenIn} = ${q.rate} ${q.tokenOut}`} />
              </dl>
              <p class="muted">
                {secondsLeft === null
                  ? `Quote valid until ${time(q.expiresAt)}`
                  : secondsLeft === 0
                  ? "Quote expired; a new one is on its way."
                  : `Quote expires in ${secondsLeft} s (${time(q.expiresAt)})`}
              </p>
            </>
          )}
        </Section>
      </div>
      {current === null ? null : (
        <Section title="Your trade">
          <TradeStatus trade={current} />
          {awaitsApproval(current)
            ? (
              <Notice>
                This wallet signs each trade itself: approve it in your wallet.
                {isSimulator() ? " On the simulator, the simulated wallet decides here:" : null}
              </Notice>
            )
            : null}
          {awaitsApproval(current) && isSimulator()
            ? (
              <div class="actions">
                <button type="button" onClick={() => void decideApproval(current.id, true)}>Approve in wallet</button>
                <button type="button" class="danger" onClick={() => void decideApproval(current.id, false)}>Reject in wallet</button>
              </div>
            )
            : null}
        </Section>
      )}
    </div>
  )
}
