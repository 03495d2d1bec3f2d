/**
 * Limit orders: a form by target price (tokenOut per tokenIn) or by minimum output, with an
 * optional expiry, placed with an `Idempotency-Key`; and the Orders tab: open, filled, cancelled,
 * expired and failed orders with filters, each with the `signer` and `signature` the wallet gave
 * it, open ones cancellable. Statuses refresh on their own, so a fill shows without reloading.
 */
import { useSignal } from "@preact/signals"
import { useRef } from "preact/hooks"
import { call, get, newIdempotencyKey } from "../api/Api.ts"
import { type Network, networks, type Order, type OrderStatus, type Page } from "../api/Types.ts"
import { isoFromInput, multiplyDecimal, time } from "../Format.ts"
import { usePoll } from "../Live.ts"
import { Section, Segmented, SelectField, TextField } from "../ui/Fields.tsx"
import { Pager } from "../ui/Pager.tsx"
import { useResource } from "../ui/Resource.ts"
import { Empty, ErrorBox, Loading, Notice } from "../ui/States.tsx"

/** How the interface names the API's order statuses (the spec calls a pending order "open"). */
export const orderStatusNames: Readonly<Record<OrderStatus, string>> = {
  pending: "open",
  confirmed: "filled",
  failed: "failed",
  cancelled: "cancelled",
  expired: "expired"
}

const PAGE_SIZE = 20
/** Digits kept when a minimum output is derived from a limit price; the server refuses more than the token has. */
const DERIVED_DECIMALS = 6

const PlaceOrder = ({ onPlaced }: { readonly onPlaced: () => void }) => {
  const tokenIn = useSignal("SOL")
  const tokenOut = useSignal("USDC")
  const amount = useSignal("1")
  const network = useSignal<Network>("solana")
  const by = useSignal<"Limit price" | "Minimum output">("Limit price")
  const limitPrice = useSignal("")
  const minOut = useSignal("")
  const expires = useSignal("")
  const error = useSignal<unknown>(null)
  const placed = useSignal<Order | null>(null)
  const busy = useSignal(false)
  const idempotency = useRef({ body: "", key: newIdempotencyKey() })

  const minAmountOut = by.value === "Minimum output"
    ? minOut.value.trim()
    : multiplyDecimal(amount.value.trim(), limitPrice.value.trim(), DERIVED_DECIMALS) ?? ""

  return (
    <form
      class="stack"
      aria-label="Place limit order"
      onSubmit={async (event) => {
        event.preventDefault()
        if (busy.value) return
        const expiresAt = isoFromInput(expires.value)
        const body = {
          tokenIn: tokenIn.value.trim(),
          tokenOut: tokenOut.value.trim(),
          amountIn: amount.value.trim(),
          minAmountOut,
          network: network.value,
          ...(expiresAt === undefined ? {} : { expiresAt })
        }
        const text = JSON.stringify(body)
        if (idempotency.current.body !== text) idempotency.current = { body: text, key: newIdempotencyKey() }
        busy.value = true
        error.value = null
        placed.value = null
        try {
          placed.value = (await call<Order>("POST", "/orders", { body, idempotencyKey: idempotency.current.key })).data
          onPlaced()
        } catch (failure) {
          error.value = failure
        } finally {
          busy.value = false
        }
      }}
    >
      <TextField label="Token in" value={tokenIn.value} onInput={(value) => (tokenIn.value = value)} list="known-tokens" required />
      <TextField label="Token out" value={tokenOut.value} onInput={(value) => (tokenOut.value = value)} list="known-tokens" required />
      <TextField label="Amount" value={amount.value} onInput={(value) => (amount.value = value)} inputMode="decimal" required />
      <SelectField label="Network" value={network.value} options={networks} onChange={(value) => (network.value = value)} />
      <Segmented label="Order by" value={by.value} options={["Limit price", "Minimum output"]} onChange={(value) => (by.value = value)} />
      {by.value === "Limit price"
        ? (
          <TextField
            label={`Limit price (${tokenOut.value} per ${tokenIn.value})`}
            value={limitPrice.value}
            onInput={(value) => (limitPrice.value = value)}
            inputMode="decimal"
            required
            hint={minAmountOut === "" ? undefined : `Fills when at least ${minAmountOut} ${tokenOut.value} can be received.`}
          />
        )
        : (
          <TextField label="Minimum output" value={minOut.value} onInput={(value) => (minOut.value = value)} inputMode="decimal" required />
        )}
      <TextField label="Expires at (UTC, optional)" type="datetime-local" value={expires.value} onInput={(value) => (expires.value = value)} />
      <button type="submit" disabled={busy.value}>Place order</button>
      <ErrorBox error={error.value} title="Order not placed" />
      {placed.value === null ? null : <Notice>Order <code>{placed.value.id}</code> placed, open until its price is reached.</Notice>}
    </form>
  )
}

export const OrdersScreen = () => {
  const status = useSignal<OrderStatus | "">("")
  const token = useSignal("")
  const network = useSignal<Network | "">("")
  const offset = useSignal(0)
  const orders = useResource<Page & { readonly orders: ReadonlyArray<Order> }>()
  const cancelError = useSignal<unknown>(null)

  const refresh = () =>
    orders.load(() =>
      get("/orders", { status: status.value, token: token.value.trim(), network: network.value, limit: PAGE_SIZE, offset: offset.value })
    )
  usePoll(refresh, 5_000, [status.value, token.value, network.value, offset.value])

  const cancel = async (order: Order) => {
    cancelError.value = null
    try {
      await call("DELETE", `/orders/${order.id}`)
    } catch (failure) {
      cancelError.value = failure
    }
    await refresh()
  }

  const data = orders.data
  return (
    <div class="screen">
      <h1>Limit orders</h1>
      <div class="columns">
        <Section title="New limit order">
          <PlaceOrder onPlaced={() => void refresh()} />
        </Section>
        <Section title="Orders">
          <form class="toolbar" aria-label="Order filters" onSubmit={(event) => event.preventDefault()}>
            <SelectField
              label="Status"
              value={status.value}
              options={[["", "All statuses"], ...Object.entries(orderStatusNames).map(([value, name]) => [value as OrderStatus, name] as const)]}
              onChange={(value) => {
                offset.value = 0
                status.value = value
              }}
            />
            <TextField label="Token" value={token.value} onInput={(value) => (token.value = value)} list="known-tokens" />
            <SelectField
              label="Network"
              value={network.value}
              options={[["", "Any network"], ...networks]}
              onChange={(value) => (network.value = value)}
            />
          </form>
          <ErrorBox error={cancelError.value} title="Not cancelled" />
          <ErrorBox error={orders.error} />
          {data === undefined
            ? (orders.error === null ? <Loading what="orders" /> : null)
            : data.orders.length === 0
            ? <Empty>No orders{status.value === "" ? "" : ` that are ${orderStatusNames[status.value]}`}. Place one with the form.</Empty>
            : (
              <>
                <ul class="list" aria-label="Orders">
                  {data.orders.map((order) => (
                    <li key={order.id} class="row">
                      <div>
                        <span class={`badge ${order.status}`}>{orderStatusNames[order.status]}</span>{" "}
                        {order.amountIn} {order.tokenIn} → at least {order.minAmountOut} {order.tokenOut} on {order.network}
                        <br />
                        <small class="muted">
                          limit {order.limitPrice} {order.tokenOut}/{order.tokenIn}; placed {time(order.createdAt)}
                          {order.expiresAt === null || order.expiresAt === undefined ? "" : `; expires ${time(order.expiresAt)}`}
                          {order.tradeId === null || order.tradeId === undefined ? "" : `; filled by ${order.tradeId}`}
                        </small>
                        <details>
                          <summary>Signature</summary>
                          <dl class="signature">
                            <dt>Signer</dt>
                            <dd><code class="wrap">{order.signer}</code></dd>
                            <dt>Signature</dt>
                            <dd><code class="wrap">{order.signature}</code></dd>
                          </dl>
                        </details>
                      </div>
                      {order.status === "pending"
                        ? (
                          <div class="actions">
                            <button type="button" class="danger" aria-label={`Cancel order ${order.id}`} onClick={() => void cancel(order)}>
                              Cancel
                            </button>
                          </div>
                        )
                        : null}
                    </li>
                  ))}
                </ul>
                <Pager page={data} label="Orders" onOffset={(next) => (offset.value = next)} />
              </>
            )}
        </Section>
      </div>
    </div>
  )
}
