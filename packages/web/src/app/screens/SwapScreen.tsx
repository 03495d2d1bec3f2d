/**
 * Swap: the network, the tokens chosen from the network's list (with the wallet's free balances),
 * the amount with the free balance and Max under it, a flip, and slippage. The amount is checked
 * as it is typed (a plain number, above zero, within the token's decimals, within the free
 * balance): until it passes, Swap is disabled with the reason beside the field and nothing is
 * sent. A live quote from `GET /v1/quote` follows the inputs and refreshes every few seconds and
 * when it expires; its price impact is graded (a warning above 1%, an explicit confirmation above
 * 5%). `POST /v1/trades` goes with an `Idempotency-Key` fixed for one set of inputs, so a double
 * click places one trade; the trade is then followed until it is confirmed or failed, saying so
 * while it waits for the wallet's approval. In live mode, a trade of an external wallet is sent
 * from the browser wallet (`ExternalWallet.ts`), each step said as the wallet asks it.
 */
import { useSignal } from "@preact/signals"
import { useEffect, useRef } from "preact/hooks"
import { amountProblem, fromUnits, impactText, significant } from "../Amounts.ts"
import { call, get, newIdempotencyKey } from "../api/Api.ts"
import type { Quote, Trade } from "../api/Types.ts"
import { serverNow } from "../Clock.ts"
import { short, time } from "../Format.ts"
import { usePoll } from "../Live.ts"
import { isSimulator } from "../Session.ts"
import { nativeToken, tokenBySymbol } from "../Tokens.ts"
import { freeOf, useBalances } from "../ui/Balances.ts"
import { Amount } from "../ui/Amount.tsx"
import { BrowserWallet } from "../ui/BrowserWallet.tsx"
import { ExactAmounts } from "../ui/ExactAmounts.tsx"
import { Checkbox, Section, Stat, TextField } from "../ui/Fields.tsx"
import { Form } from "../ui/Form.tsx"
import { useResource } from "../ui/Resource.ts"
import { ErrorBox, Notice } from "../ui/States.tsx"
import { TokenPicker } from "../ui/TokenPicker.tsx"
import { chooseToken, PayingFields, useTokenPair } from "../ui/TokenPair.tsx"
import { loadWallet } from "../wallet/LoadWallet.ts"
import { isLive } from "../wallet/WalletState.ts"

const QUOTE_REFRESH_MS = 10_000
const TYPING_PAUSE_MS = 350

/** Price impact above this (percent) is shown as a warning. */
export const IMPACT_WARNING = 1
/** Price impact above this (percent) must be accepted explicitly before Swap. */
export const IMPACT_CONFIRM = 5

/** Why `slippage` (percent, as typed) cannot be sent, or null: the API takes 0 < slippage <= 50. */
export const slippageProblem = (text: string): string | null => {
  const value = Number(text.trim())
  return text.trim() === "" || !Number.isFinite(value) || value <= 0 || value > 50
    ? "Slippage is a percentage above 0 and at most 50."
    : null
}

/** The quote's price impact, graded: what it asks of the user before Swap. */
export const ImpactNotice = (
  { impact, accepted, onAccept }: { readonly impact: number; readonly accepted: boolean; readonly onAccept: (on: boolean) => void }
) => {
  if (impact <= IMPACT_WARNING) return null
  const shown = impactText(impact)
  return impact <= IMPACT_CONFIRM
    ? (
      <p class="impact warning" role="status">
        <strong>Price impact {shown}.</strong> This trade moves the price against you; a smaller amount gets a better rate.
      </p>
    )
    : (
      <div class="impact danger" role="alert">
        <p>
          <strong>Very high price impact: {shown}.</strong>{" "}
          You would receive noticeably less than the market price. Check the estimate below before you swap.
        </p>
        <Checkbox label={`I accept a price impact of ${shown}`} checked={accepted} onChange={onAccept} />
      </div>
    )
}

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
      <Stat label="Amount in" value={<Amount value={trade.amountIn} symbol={trade.tokenIn} />} />
      {trade.amountOut === undefined
        ? (
          <Stat
            label="Estimated out"
            value={trade.estimatedAmountOut === undefined ? `— ${trade.tokenOut}` : <Amount value={trade.estimatedAmountOut} symbol={trade.tokenOut} />}
          />
        )
        : <Stat label="Received" value={<Amount value={trade.amountOut} symbol={trade.tokenOut} />} />}
      <Stat label="Fee" value={<Amount value={trade.fee} symbol={trade.tokenOut} />} />
      <Stat label="Network" value={trade.network} />
      {trade.txHash === undefined ? null : <Stat label="Transaction hash" value={short(trade.txHash, 10)} />}
      {trade.confirmedAt === undefined || trade.confirmedAt === null ? null : (
        <Stat label="Confirmed at" value={time(trade.confirmedAt)} />
      )}
    </dl>
    <ExactAmounts trade={trade} />
  </div>
)

/** Decides a trade waiting for approval in the simulated wallet (simulator only). */
export const decideApproval = (tradeId: string, approve: boolean) =>
  call("POST", "/sim/approvals", { body: { tradeId, approve }, control: true })

export const SwapScreen = () => {
  const pair = useTokenPair()
  const { network, tokenIn, tokenOut, amount } = pair
  const slippage = useSignal("0.5")
  const quote = useResource<Quote>()
  const submitting = useSignal(false)
  const submitError = useSignal<unknown>(null)
  const accepted = useSignal(false)
  const trade = useSignal<Trade | null>(null)
  // The browser wallet's part in a live external wallet's trade: the step it is at, and what failed.
  const walletStep = useSignal<string | null>(null)
  const walletError = useSignal<unknown>(null)
  const walletBusy = useSignal(false)
  const idempotency = useRef({ inputs: "", key: newIdempotencyKey() })
  const { balances, available: balancesServed, refresh: refreshBalances } = useBalances(network.value)

  const inInfo = tokenBySymbol(tokenIn.value)
  const outInfo = tokenBySymbol(tokenOut.value)
  const free = freeOf(balances.data, tokenIn.value)
  const typed = amount.value.trim()
  // The amount as a number of the token, whatever the balance (a quote is still worth seeing).
  const wellFormed = amountProblem(typed, tokenIn.value, inInfo?.decimals ?? 0, undefined) === null
  const amountIssue = amountProblem(typed, tokenIn.value, inInfo?.decimals ?? 0, free)
  const pairIssue = tokenIn.value === tokenOut.value ? "Choose two different tokens." : null
  const slippageIssue = slippageProblem(slippage.value)
  const quotable = wellFormed && pairIssue === null && slippageIssue === null

  const inputs = JSON.stringify([tokenIn.value, tokenOut.value, typed, network.value, slippage.value.trim()])
  const readQuote = () =>
    quotable
      ? quote.load(() =>
        get<Quote>("/quote", {
          tokenIn: tokenIn.value,
          tokenOut: tokenOut.value,
          amountIn: typed,
          network: network.value,
          slippage: slippage.value.trim()
        })
      )
      : Promise.resolve()

  // New inputs: the last quote, its acceptance and the last refusal no longer apply. A new quote
  // follows shortly after the user stops typing, then every few seconds.
  useEffect(() => {
    quote.clear()
    accepted.value = false
    submitError.value = null
    const timer = setTimeout(() => void readQuote(), TYPING_PAUSE_MS)
    return () => clearTimeout(timer)
  }, [inputs])
  usePoll(readQuote, QUOTE_REFRESH_MS, [inputs])

  // The trade followed until it settles; the balances read again when it does.
  usePoll(
    async () => {
      const current = trade.value
      if (current === null || current.status !== "pending") return
      trade.value = await get<Trade>(`/trades/${current.id}`)
      if (trade.value.status !== "pending") void refreshBalances()
    },
    2_000,
    [trade.value?.id, trade.value?.status]
  )

  const q = quote.data
  const now = serverNow.value
  const secondsLeft = q === undefined || now === null ? null : Math.max(0, Math.round((Date.parse(q.expiresAt) - now) / 1000))
  // An expired quote is replaced at once, not at the next poll.
  useEffect(() => {
    if (secondsLeft === 0) void readQuote()
  }, [secondsLeft === 0, q?.expiresAt])

  const needsAcceptance = q !== undefined && q.priceImpact > IMPACT_CONFIRM
  const blocked = amountIssue ?? pairIssue ?? slippageIssue ??
    (q === undefined ? "Waiting for a quote." : needsAcceptance && !accepted.value ? "Accept the price impact first." : null)

  /** Sends `pending`'s prepared transactions from the browser wallet and reports them (live mode). */
  const payFromWallet = async (pending: Trade) => {
    if (walletBusy.value || pending.approval === undefined) return
    walletBusy.value = true
    walletError.value = null
    try {
      const { approveTrade } = await loadWallet()
      trade.value = (await approveTrade(pending, pending.approval, (step) => (walletStep.value = step))).value
      void refreshBalances()
    } catch (error) {
      // The wallet's step no longer holds: the failure says what happened instead.
      walletStep.value = null
      walletError.value = error
    } finally {
      walletBusy.value = false
    }
  }

  /** Rejects a live trade awaiting approval without the wallet (its prepared swap lost, or the user changed their mind). */
  const rejectTrade = async (pending: Trade) => {
    walletError.value = null
    try {
      trade.value = (await call<Trade>("POST", `/trades/${pending.id}/approval`, { body: { reject: true } })).data
      walletStep.value = null
      void refreshBalances()
    } catch (error) {
      walletError.value = error
    }
  }

  const submit = async () => {
    if (submitting.value || walletBusy.value || blocked !== null) return
    // One key per set of inputs: a second click on the same swap replays the first answer.
    if (idempotency.current.inputs !== inputs) idempotency.current = { inputs, key: newIdempotencyKey() }
    submitting.value = true
    submitError.value = null
    walletStep.value = null
    walletError.value = null
    try {
      const answer = await call<Trade>("POST", "/trades", {
        body: {
          tokenIn: tokenIn.value,
          tokenOut: tokenOut.value,
          amountIn: typed,
          network: network.value,
          slippage: Number(slippage.value)
        },
        idempotencyKey: idempotency.current.key
      })
      trade.value = answer.data
      void refreshBalances()
      trade.value = await get<Trade>(`/trades/${answer.data.id}`)
    } catch (error) {
      submitError.value = error
    } finally {
      submitting.value = false
    }
    const placed = trade.value
    if (placed !== null && isLive() && placed.approval !== undefined) await payFromWallet(placed)
  }

  const current = trade.value
  const outFree = freeOf(balances.data, tokenOut.value)
  const gasToken = nativeToken(network.value)

  return (
    <div class="screen">
      <h1>Swap</h1>
      <div class="columns">
        <Section title="New swap">
          <BrowserWallet network={network.value} />
          <Form
            label="Swap"
            onSubmit={() => {
              void submit()
            }}
          >
            <PayingFields pair={pair} balances={balances.data} free={free} balancesServed={balancesServed} problem={amountIssue} />
            <div class="flip-row">
              <button
                type="button"
                class="secondary flip"
                aria-label={`Flip: sell ${tokenOut.value} for ${tokenIn.value}`}
                onClick={() => {
                  const was = tokenIn.value
                  tokenIn.value = tokenOut.value
                  tokenOut.value = was
                }}
              >
                <span aria-hidden="true">⇅</span> Flip
              </button>
            </div>
            <div class="leg">
              <TokenPicker label="Token out" value={tokenOut.value} network={network.value} balances={balances.data} onChange={(symbol) => chooseToken(pair, "out", symbol)} />
              <div class="field">
                <span class="label" id="swap-estimate-label">You receive (estimated)</span>
                <output class="estimate" aria-labelledby="swap-estimate-label">
                  {q === undefined ? "—" : <Amount value={q.estimatedAmountOut} symbol={q.tokenOut} />}
                </output>
                {outFree === undefined || outInfo === undefined ? null : (
                  <div class="balance-line"><span>Free balance: <Amount value={fromUnits(outFree, outInfo.decimals)} symbol={tokenOut.value} /></span></div>
                )}
              </div>
            </div>
            {pairIssue === null ? null : <p class="field-problem">{pairIssue}</p>}
            <TextField
              label="Slippage (%)"
              value={slippage.value}
              onInput={(value) => (slippage.value = value)}
              inputMode="decimal"
              problem={slippageIssue}
              hint="The swap fails rather than give less than the minimum received."
            />
            {q === undefined ? null : (
              <ImpactNotice impact={q.priceImpact} accepted={accepted.value} onAccept={(on) => (accepted.value = on)} />
            )}
            <button
              type="submit"
              disabled={submitting.value || walletBusy.value || blocked !== null}
              aria-busy={submitting.value || walletBusy.value}
              aria-describedby="swap-blocked"
            >
              Swap
            </button>
            <small id="swap-blocked" class="muted" aria-live="polite">
              {blocked !== null && blocked !== amountIssue && blocked !== slippageIssue && blocked !== pairIssue ? blocked : ""}
            </small>
          </Form>
          <ErrorBox error={submitError.value} title="Swap refused" />
        </Section>
        <Section title="Quote">
          <ErrorBox error={quote.error} />
          {q === undefined
            ? (quote.error === null
              ? <p class="state">{quotable ? "Getting a quote…" : "Enter a swap to see a quote."}</p>
              : null)
            : (
              <>
                <dl class="stats">
                  <Stat label="You receive (estimated)" value={<Amount value={q.estimatedAmountOut} symbol={q.tokenOut} />} />
                  <Stat label="Minimum received" value={<Amount value={q.minAmountOut} symbol={q.tokenOut} />} />
                  <Stat label="Platform fee" value={<Amount value={q.fee} symbol={q.tokenOut} />} />
                  <Stat
                    label="Price impact"
                    value={impactText(q.priceImpact)}
                    {...(q.priceImpact > IMPACT_WARNING ? { tone: "down" as const } : {})}
                  />
                  <Stat label="Gas" value={<Amount value={q.gasFee} symbol={gasToken} />} />
                </dl>
                <p class="rate-line" title={`1 ${q.tokenIn} = ${q.rate} ${q.tokenOut}`}>
                  <span class="muted">Rate</span> 1 {q.tokenIn} = {significant(q.rate)} {q.tokenOut}
                </p>
                <p class="muted" role="timer" aria-live="off">
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
          {walletStep.value === null || (current.status !== "pending" && current.failureReason !== "WALLET_REJECTED")
            ? null
            : <p class="wallet-step" role="status" aria-live="polite">{walletStep.value}</p>}
          <ErrorBox error={walletError.value} title="Wallet" />
          {awaitsApproval(current) && isLive() && !walletBusy.value
            ? (
              <div class="actions">
                {current.approval === undefined ? null : (
                  <button type="button" onClick={() => void payFromWallet(current)}>Continue in wallet</button>
                )}
                <button type="button" class="danger" onClick={() => void rejectTrade(current)}>Reject trade</button>
              </div>
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
