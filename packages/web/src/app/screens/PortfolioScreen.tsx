/**
 * Portfolio (`GET /v1/portfolio`, scope `read`): total value, cost basis and profit and loss, the
 * holdings with their allocation, and the performance chart for the chosen range and network.
 */
import { useSignal } from "@preact/signals"
import { get } from "../api/Api.ts"
import { type Network, networks, type Portfolio } from "../api/Types.ts"
import { amountText, grouped } from "../Amounts.ts"
import { money, percent, short, time } from "../Format.ts"
import { usePoll } from "../Live.ts"
import { Section, Segmented, SelectField, Stat, TableScroller } from "../ui/Fields.tsx"
import { useResource } from "../ui/Resource.ts"
import { Empty, ErrorBox, Loading } from "../ui/States.tsx"
import { ValueChart } from "../ui/ValueChart.tsx"

const ranges = ["24h", "7d", "30d", "all"] as const

/**
 * The range shown first: 24 h has the finest spacing (a point every 15 minutes, docs/portfolio.md),
 * so even a young account's curve has shape; 7 d (the API's default) has one point an hour.
 */
const DEFAULT_RANGE = "24h"

const tone = (value: number) => (value >= 0 ? "up" : "down")

export const PortfolioScreen = () => {
  const range = useSignal<(typeof ranges)[number]>(DEFAULT_RANGE)
  const network = useSignal<Network | "">("")
  const portfolio = useResource<Portfolio>()
  usePoll(
    () => portfolio.load(() => get<Portfolio>("/portfolio", { range: range.value, network: network.value })),
    15_000,
    [range.value, network.value]
  )
  const data = portfolio.data
  return (
    <div class="screen">
      <h1>Portfolio</h1>
      <div class="toolbar">
        <Segmented label="Performance range" value={range.value} options={ranges} onChange={(value) => (range.value = value)} />
        <SelectField label="Network" value={network.value} options={[["", "All networks"], ...networks]} onChange={(value) => (network.value = value)} />
      </div>
      <ErrorBox error={portfolio.error} />
      {data === undefined ? (portfolio.error === null ? <Loading what="portfolio" /> : null) : (
        <>
          <Section title="Value">
            <dl class="stats">
              <Stat label="Total value" value={money(data.totalValue, data.currency)} />
              <Stat label="24 h change" value={percent(data.change24h)} tone={tone(data.change24h)} />
              <Stat label="Cost basis" value={money(data.totalCostBasis, data.currency)} />
              <Stat label="Unrealized PnL" value={`${money(data.unrealizedPnl, data.currency)} (${percent(data.unrealizedPnlPercent)})`} tone={tone(data.unrealizedPnl)} />
              <Stat label="Realized PnL" value={money(data.realizedPnl, data.currency)} tone={tone(data.realizedPnl)} />
            </dl>
            <p class="muted">Updated {time(data.updatedAt)}</p>
          </Section>
          <Section title="Performance">
            {data.performance.points.length === 0 ? <Empty>No history for this range yet.</Empty> : (
              <>
                <ValueChart points={data.performance.points} currency={data.currency} label={`Portfolio value over ${data.performance.range}`} />
                {data.performance.points.length > 2 ? null : (
                  <p class="muted">
                    Only {data.performance.points.length === 1 ? "one point" : "two points"} so far: the history starts when the wallets were
                    connected ({time(data.performance.points[0]!.timestamp)}) and gains a point every{" "}
                    {data.performance.range === "24h" || data.performance.range === "all" ? "15 minutes" : data.performance.range === "7d" ? "hour" : "4 hours"}.
                  </p>
                )}
              </>
            )}
          </Section>
          <Section title="Holdings">
            {data.holdings.length === 0 ? <Empty>No holdings. Fund a wallet, then swap.</Empty> : (
              <TableScroller label={"Holdings table"}>
                <table class="cards">
                  <caption class="visually-hidden">Holdings by value</caption>
                  <thead>
                    <tr>
                      <th scope="col">Token</th>
                      <th scope="col">Network</th>
                      <th scope="col" class="num">Amount</th>
                      <th scope="col" class="num">Value</th>
                      <th scope="col" class="num">Average cost</th>
                      <th scope="col" class="num">Unrealized PnL</th>
                      <th scope="col">Allocation</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.holdings.map((holding) => (
                      <tr key={`${holding.network}:${holding.token}`}>
                        <td data-label="Token">{holding.token}</td>
                        <td data-label="Network">{holding.network}</td>
                        <td class="num" data-label="Amount">
                          <data class="amount" value={holding.amount} title={`${grouped(holding.amount)} ${holding.token}`}>{amountText(holding.amount)}</data>
                        </td>
                        <td class="num" data-label="Value">{money(holding.value, data.currency)}</td>
                        <td class="num" data-label="Average cost">{money(holding.averageCost, data.currency)}</td>
                        <td class={`num ${tone(holding.unrealizedPnl)}`} data-label="Unrealized PnL">
                          {money(holding.unrealizedPnl, data.currency)} ({percent(holding.unrealizedPnlPercent)})
                        </td>
                        <td data-label="Allocation">
                          <span class="bar" aria-hidden="true"><span style={{ width: `${Math.min(100, holding.allocationPercent)}%` }} /></span>{" "}
                          {holding.allocationPercent.toFixed(1)}%
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroller>
            )}
          </Section>
          <Section title="Wallets">
            <ul class="list" aria-label="Wallets">
              {data.wallets.map((wallet) => (
                <li key={wallet.network} class="row">
                  <span>{wallet.network} <code title={wallet.address}>{short(wallet.address)}</code></span>
                  <span>{money(wallet.value, data.currency)}</span>
                </li>
              ))}
            </ul>
          </Section>
        </>
      )}
    </div>
  )
}
