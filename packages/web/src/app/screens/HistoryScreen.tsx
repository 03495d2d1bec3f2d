/**
 * History: the account's trades, newest first, with the spec's filters (token, status, network,
 * submitted from/to) and pagination; pending trades update on their own.
 */
import { useSignal } from "@preact/signals"
import { get } from "../api/Api.ts"
import { type Network, type Page, type Trade, type TradeStatus } from "../api/Types.ts"
import { isoFromInput, short, time } from "../Format.ts"
import { usePoll } from "../Live.ts"
import { Amount } from "../ui/Amount.tsx"
import { ExactAmounts } from "../ui/ExactAmounts.tsx"
import { Section, SelectField, TableScroller, TextField } from "../ui/Fields.tsx"
import { NetworkFilter } from "../ui/NetworkFilter.tsx"
import { Form } from "../ui/Form.tsx"
import { PagedListing } from "../ui/Pager.tsx"
import { useResource } from "../ui/Resource.ts"
import { Empty, StatusBadge } from "../ui/States.tsx"

const PAGE_SIZE = 20

interface Filters {
  readonly token: string
  readonly status: TradeStatus | ""
  readonly network: Network | ""
  readonly from: string
  readonly to: string
}

const none: Filters = { token: "", status: "", network: "", from: "", to: "" }

export const HistoryScreen = () => {
  const draft = useSignal<Filters>(none)
  const filters = useSignal<Filters>(none)
  const offset = useSignal(0)
  const trades = useResource<Page & { readonly trades: ReadonlyArray<Trade> }>()

  usePoll(
    () =>
      trades.load(() =>
        get("/trades", {
          token: filters.value.token.trim(),
          status: filters.value.status,
          network: filters.value.network,
          from: isoFromInput(filters.value.from),
          to: isoFromInput(filters.value.to),
          limit: PAGE_SIZE,
          offset: offset.value
        })
      ),
    5_000,
    [filters.value, offset.value]
  )

  const set = (change: Partial<Filters>) => (draft.value = { ...draft.value, ...change })
  return (
    <div class="screen">
      <h1>History</h1>
      <Section title="Filters">
        <Form
          label="Trade filters"
          layout="toolbar"
          onSubmit={() => {
            offset.value = 0
            filters.value = draft.value
          }}
        >
          <TextField label="Token" value={draft.value.token} onInput={(token) => set({ token })} list="known-tokens" />
          <SelectField
            label="Status"
            value={draft.value.status}
            options={[["", "Any status"], "pending", "confirmed", "failed"]}
            onChange={(status) => set({ status })}
          />
          <NetworkFilter value={draft.value.network} onChange={(network) => set({ network })} />
          <TextField label="Submitted from (UTC)" type="datetime-local" value={draft.value.from} onInput={(from) => set({ from })} />
          <TextField label="Submitted to (UTC)" type="datetime-local" value={draft.value.to} onInput={(to) => set({ to })} />
          <button type="submit">Apply filters</button>
        </Form>
      </Section>
      <Section title="Trades">
        <PagedListing
          what="trades"
          resource={trades}
          itemsOf={(page) => page.trades}
          offset={offset}
          empty={<Empty>No trades match. Place one on the Swap screen, or widen the filters.</Empty>}
        >
          {(page) => (
            <TableScroller label={"Trades table"}>
              <table class="cards">
                <caption class="visually-hidden">Trades, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Submitted</th>
                    <th scope="col">Status</th>
                    <th scope="col">Swap</th>
                    <th scope="col" class="num">Received</th>
                    <th scope="col">Network</th>
                    <th scope="col">Transaction</th>
                  </tr>
                </thead>
                <tbody>
                  {page.trades.map((trade) => (
                    <tr key={trade.id}>
                      <td data-label="Submitted">{time(trade.createdAt)}</td>
                      <td data-label="Status"><StatusBadge status={trade.status} /></td>
                      <td data-label="Swap">
                        <Amount value={trade.amountIn} symbol={trade.tokenIn} /> → {trade.tokenOut}
                        <ExactAmounts trade={trade} />
                      </td>
                      <td class="num" data-label="Received">
                        {trade.amountOut === undefined ? "—" : <Amount value={trade.amountOut} symbol={trade.tokenOut} />}
                      </td>
                      <td data-label="Network">{trade.network}</td>
                      <td data-label="Transaction" title={trade.txHash}>{trade.txHash === undefined ? "not broadcast" : short(trade.txHash)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroller>
          )}
        </PagedListing>
      </Section>
    </div>
  )
}
