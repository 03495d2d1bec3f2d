/**
 * Limit orders: a form with the same care as the swap (tokens from the network's list, the free
 * balance and Max, the amount checked as it is typed, nothing sent while a field is wrong), by
 * target price (tokenOut per tokenIn, with the market's rate beside it) or by minimum output,
 * with an optional expiry, placed with an `Idempotency-Key`; and the Orders tab: the orders by the
 * API's statuses (`pending` is open, `confirmed` filled, `failed`, `cancelled`, `expired`) with
 * filters, each with the `signer` and `signature` the wallet gave it, pending ones cancellable.
 * Statuses refresh on their own, so a fill shows without reloading. In live mode, an external
 * wallet's order is signed in the browser wallet right after it is placed (`ExternalWallet.ts`);
 * one left unsigned can be signed from the list.
 */
import { useSignal } from "@preact/signals"
import { useEffect, useRef } from "preact/hooks"
import { amountProblem, grouped, significant } from "../Amounts.ts"
import { call, get, newIdempotencyKey } from "../api/Api.ts"
import { type Network, type Order, type OrderStatus, type Page, type Quote } from "../api/Types.ts"
import { isoFromInput, multiplyDecimal, time } from "../Format.ts"
import { usePoll } from "../Live.ts"
import { tokenBySymbol } from "../Tokens.ts"
import { freeOf, useBalances } from "../ui/Balances.ts"
import { Amount } from "../ui/Amount.tsx"
import { BrowserWallet } from "../ui/BrowserWallet.tsx"
import { Section, Segmented, SelectField, TextField } from "../ui/Fields.tsx"
import { NetworkFilter } from "../ui/NetworkFilter.tsx"
import { useAction } from "../ui/Action.ts"
import { Form } from "../ui/Form.tsx"
import { PagedRows } from "../ui/Pager.tsx"
import { useResource } from "../ui/Resource.ts"
import { Empty, ErrorBox, Notice, StatusBadge } from "../ui/States.tsx"
import { TokenPicker } from "../ui/TokenPicker.tsx"
import { chooseToken, PayingFields, useTokenPair } from "../ui/TokenPair.tsx"
import { loadWallet } from "../wallet/LoadWallet.ts"
import { isLive } from "../wallet/WalletState.ts"

/** The order statuses, in the API's own words (`pending` is an open order, `confirmed` a filled one). */
export const orderStatuses: ReadonlyArray<OrderStatus> = ["pending", "confirmed", "failed", "cancelled", "expired"]

const PAGE_SIZE = 20
const MARKET_REFRESH_MS = 30_000
const TYPING_PAUSE_MS = 350

/** Whether `order` waits for its external wallet's signature, which the browser wallet can give (live mode). */
const awaitsSignature = (order: Order): boolean =>
  order.status === "pending" && order.signature === null && order.typedData !== undefined && isLive()

/**
 * Has the browser wallet sign `order`, telling `step` each stage; answers the order as the server
 * then has it (signed, or cancelled after a refusal in the wallet).
 */
const signInWallet = async (order: Order, step: (text: string) => void): Promise<Order> =>
  (await (await loadWallet()).signOrder(order, step)).value

/** Why a limit price (tokenOut per tokenIn, as typed) cannot be used, or null. */
const priceProblem = (text: string): string | null => {
  const trimmed = text.trim()
  if (trimmed === "") return "Enter a limit price."
  if (!/^(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(trimmed)) return "Enter the price as a plain number above zero, like 150.5."
  return Number(trimmed) > 0 ? null : "The limit price must be greater than zero."
}

const PlaceOrder = ({ onPlaced }: { readonly onPlaced: () => void }) => {
  const pair = useTokenPair()
  const { network, tokenIn, tokenOut, amount } = pair
  const by = useSignal<"Limit price" | "Minimum output">("Limit price")
  const limitPrice = useSignal("")
  const minOut = useSignal("")
  const expires = useSignal("")
  const error = useSignal<unknown>(null)
  const placed = useSignal<Order | null>(null)
  const busy = useSignal(false)
  const walletStep = useSignal<string | null>(null)
  const walletError = useSignal<unknown>(null)
  const market = useResource<Quote>()
  const idempotency = useRef({ body: "", key: newIdempotencyKey() })
  const { balances, available: balancesServed, refresh: refreshBalances } = useBalances(network.value)

  const inInfo = tokenBySymbol(tokenIn.value)
  const outDecimals = tokenBySymbol(tokenOut.value)?.decimals ?? 0
  const typed = amount.value.trim()
  const free = freeOf(balances.data, tokenIn.value)
  const amountIssue = amountProblem(typed, tokenIn.value, inInfo?.decimals ?? 0, free)
  const wellFormed = amountProblem(typed, tokenIn.value, inInfo?.decimals ?? 0, undefined) === null
  const pairIssue = tokenIn.value === tokenOut.value ? "Choose two different tokens." : null
  // The minimum output from a limit price is rounded down to tokenOut's decimals: never more than asked.
  const minAmountOut = by.value === "Minimum output"
    ? minOut.value.trim()
    : multiplyDecimal(typed, limitPrice.value.trim(), outDecimals) ?? ""
  const priceIssue = by.value === "Limit price"
    ? priceProblem(limitPrice.value) ?? (wellFormed && (minAmountOut === "" || Number(minAmountOut) === 0)
      ? `At this price the minimum output rounds to 0 ${tokenOut.value}.`
      : null)
    : null
  const minOutIssue = by.value === "Minimum output" ? amountProblem(minOut.value, tokenOut.value, outDecimals, undefined) : null
  const blocked = amountIssue ?? pairIssue ?? priceIssue ?? minOutIssue

  // New inputs: the last refusal no longer applies.
  const inputs = JSON.stringify([tokenIn.value, tokenOut.value, typed, network.value, by.value, limitPrice.value, minOut.value, expires.value])
  useEffect(() => {
    error.value = null
  }, [inputs])

  // The market's rate for the same amount, for reference beside the limit price.
  const marketInputs = JSON.stringify([tokenIn.value, tokenOut.value, typed, network.value])
  const readMarket = () =>
    wellFormed && pairIssue === null
      ? market.load(() => get<Quote>("/quote", { tokenIn: tokenIn.value, tokenOut: tokenOut.value, amountIn: typed, network: network.value }))
      : Promise.resolve()
  useEffect(() => {
    market.clear()
    const timer = setTimeout(() => void readMarket(), TYPING_PAUSE_MS)
    return () => clearTimeout(timer)
  }, [marketInputs])
  usePoll(readMarket, MARKET_REFRESH_MS, [marketInputs])
  const rate = market.data?.rate

  return (
    <>
      <BrowserWallet network={network.value} />
      <Form
        label="Place limit order"
        onSubmit={async () => {
          if (busy.value || blocked !== null) return
          const expiresAt = isoFromInput(expires.value)
          const body = {
            tokenIn: tokenIn.value,
            tokenOut: tokenOut.value,
            amountIn: typed,
            minAmountOut,
            network: network.value,
            ...(expiresAt === undefined ? {} : { expiresAt })
          }
          const text = JSON.stringify(body)
          if (idempotency.current.body !== text) idempotency.current = { body: text, key: newIdempotencyKey() }
          busy.value = true
          error.value = null
          placed.value = null
          walletStep.value = null
          walletError.value = null
          try {
            placed.value = (await call<Order>("POST", "/orders", { body, idempotencyKey: idempotency.current.key })).data
            void refreshBalances()
            onPlaced()
            if (awaitsSignature(placed.value)) {
              placed.value = await signInWallet(placed.value, (step) => (walletStep.value = step))
              void refreshBalances()
              onPlaced()
            }
          } catch (failure) {
            if (placed.value === null) error.value = failure
            else {
              // The wallet's step no longer holds: the failure says what happened instead.
              walletStep.value = null
              walletError.value = failure
            }
          } finally {
            busy.value = false
          }
        }}
      >
        <PayingFields pair={pair} balances={balances.data} free={free} balancesServed={balancesServed} problem={amountIssue} />
        <div class="leg">
          <TokenPicker label="Token out" value={tokenOut.value} network={network.value} balances={balances.data} onChange={(symbol) => chooseToken(pair, "out", symbol)} />
          <div class="field">
            <span class="label">Market rate</span>
            <p class="rate-line" title={rate === undefined ? undefined : `1 ${tokenIn.value} = ${rate} ${tokenOut.value}`}>
              {rate === undefined ? "—" : `1 ${tokenIn.value} = ${significant(rate)} ${tokenOut.value}`}
            </p>
            {rate === undefined ? null : (
              <button
                type="button"
                class="link"
                onClick={() => {
                  by.value = "Limit price"
                  limitPrice.value = significant(rate).replaceAll(",", "")
                }}
              >
                Use the market rate
              </button>
            )}
          </div>
        </div>
        {pairIssue === null ? null : <p class="field-problem">{pairIssue}</p>}
        <Segmented label="Order by" value={by.value} options={["Limit price", "Minimum output"]} onChange={(value) => (by.value = value)} />
        {by.value === "Limit price"
          ? (
            <TextField
              label={`Limit price (${tokenOut.value} per ${tokenIn.value})`}
              value={limitPrice.value}
              onInput={(value) => (limitPrice.value = value)}
              inputMode="decimal"
              required
              problem={limitPrice.value.trim() === "" ? null : priceIssue}
              hint={minAmountOut === "" || priceIssue !== null ? undefined : `Fills when at least ${grouped(minAmountOut)} ${tokenOut.value} can be received.`}
            />
          )
          : (
            <TextField
              label="Minimum output"
              value={minOut.value}
              onInput={(value) => (minOut.value = value)}
              inputMode="decimal"
              required
              problem={minOut.value.trim() === "" ? null : minOutIssue}
            />
          )}
        <TextField label="Expires at (UTC, optional)" type="datetime-local" value={expires.value} onInput={(value) => (expires.value = value)} />
        <button type="submit" disabled={busy.value || blocked !== null} aria-describedby="order-blocked">Place order</button>
        {/* The reason Place order waits, when no field shows it yet (an empty price or minimum). */}
        <small id="order-blocked" class="muted" aria-live="polite">
          {blocked !== null && blocked !== amountIssue && blocked !== pairIssue &&
              (by.value === "Limit price" ? limitPrice.value.trim() === "" : minOut.value.trim() === "")
            ? blocked
            : ""}
        </small>
        <ErrorBox error={error.value} title="Order not placed" />
        {placed.value === null || placed.value.signature === null || placed.value.status !== "pending"
          ? null
          : <Notice>Order <code>{placed.value.id}</code> placed: pending until its price is reached.</Notice>}
        {walletStep.value === null ? null : <p class="wallet-step" role="status" aria-live="polite">{walletStep.value}</p>}
        <ErrorBox error={walletError.value} title="Wallet" />
      </Form>
    </>
  )
}

export const OrdersScreen = () => {
  const status = useSignal<OrderStatus | "">("")
  const token = useSignal("")
  const network = useSignal<Network | "">("")
  const offset = useSignal(0)
  const orders = useResource<Page & { readonly orders: ReadonlyArray<Order> }>()

  const refresh = () =>
    orders.load(() =>
      get("/orders", { status: status.value, token: token.value.trim(), network: network.value, limit: PAGE_SIZE, offset: offset.value })
    )
  usePoll(refresh, 5_000, [status.value, token.value, network.value, offset.value])

  const { error: cancelError, run } = useAction(refresh)
  const signing = useAction(refresh)
  const listStep = useSignal<string | null>(null)
  const signFromList = (order: Order) =>
    signing.run(() =>
      signInWallet(order, (step) => (listStep.value = step)).catch((failure: unknown) => {
        // The wallet's step no longer holds: the failure says what happened instead.
        listStep.value = null
        throw failure
      })
    )
  const cancel = (order: Order) => run(() => call("DELETE", `/orders/${order.id}`))

  return (
    <div class="screen">
      <h1>Limit orders</h1>
      <div class="columns">
        <Section title="New limit order">
          <PlaceOrder onPlaced={() => void refresh()} />
        </Section>
        <Section title="Orders">
          <Form layout="toolbar" label="Order filters">
            <SelectField
              label="Status"
              value={status.value}
              options={[["", "All statuses"], ...orderStatuses]}
              onChange={(value) => {
                offset.value = 0
                status.value = value
              }}
            />
            <TextField label="Token" value={token.value} onInput={(value) => (token.value = value)} list="known-tokens" />
            <NetworkFilter value={network.value} onChange={(value) => (network.value = value)} />
          </Form>
          <ErrorBox error={cancelError.value} title="Not cancelled" />
          <ErrorBox error={signing.error.value} title="Not signed" />
          {listStep.value === null ? null : <p class="wallet-step" role="status" aria-live="polite">{listStep.value}</p>}
          <PagedRows
            what="orders"
            resource={orders}
            itemsOf={(page) => page.orders}
            offset={offset}
            empty={<Empty>No orders{status.value === "" ? "" : ` that are ${status.value}`}. Place one with the form.</Empty>}
          >
            {(order) => (
              <>
                <div>
                  <StatusBadge status={order.status} />{" "}
                  <Amount value={order.amountIn} symbol={order.tokenIn} /> → at least <Amount value={order.minAmountOut} symbol={order.tokenOut} /> on {order.network}
                  <br />
                  <small class="muted">
                    limit <span title={order.limitPrice}>{significant(order.limitPrice)}</span> {order.tokenOut}/{order.tokenIn}; placed {time(order.createdAt)}
                    {order.expiresAt === null || order.expiresAt === undefined ? "" : `; expires ${time(order.expiresAt)}`}
                    {order.tradeId === null || order.tradeId === undefined ? "" : `; filled by ${order.tradeId}`}
                  </small>
                  <details>
                    <summary>Signature</summary>
                    <dl class="signature">
                      <dt>Signer</dt>
                      <dd><code class="wrap">{order.signer}</code></dd>
                      <dt>Signature</dt>
                      <dd>{order.signature === null ? "not signed yet" : <code class="wrap">{order.signature}</code>}</dd>
                    </dl>
                  </details>
                </div>
                {order.status === "pending"
                  ? (
                    <div class="actions">
                      {awaitsSignature(order)
                        ? (
                          <button
                            type="button"
                            aria-label={`Sign order ${order.id} in wallet`}
                            onClick={() => void signFromList(order)}
                          >
                            Sign in wallet
                          </button>
                        )
                        : null}
                      <button type="button" class="danger" aria-label={`Cancel order ${order.id}`} onClick={() => void cancel(order)}>
                        Cancel
                      </button>
                    </div>
                  )
                  : null}
              </>
            )}
          </PagedRows>
        </Section>
      </div>
    </div>
  )
}
