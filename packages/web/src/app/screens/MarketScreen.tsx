/**
 * Market: a token by symbol or contract address, its price and 24 h figures in a chosen currency
 * (and the extended fields when the key has `read`), its candles with volume for the six
 * timeframes over the latest period or a chosen date range, and the trending table per network.
 * The price, the chart's last candle and the ranking refresh on their own.
 */
import { useSignal } from "@preact/signals"
import { useEffect } from "preact/hooks"
import { get } from "../api/Api.ts"
import {
  type Chart,
  currencies,
  type MarketRecord,
  type Network,
  type Timeframe,
  timeframes,
  type Trending
} from "../api/Types.ts"
import { compact, count, isoFromInput, money, percent, time } from "../Format.ts"
import { usePoll } from "../Live.ts"
import { defaultToken, listedNetworks, offeredNetworks, tokenCatalogue } from "../Tokens.ts"
import { CandleChart } from "../ui/CandleChart.tsx"
import { Section, Segmented, SelectField, Stat, TableScroller, TextField } from "../ui/Fields.tsx"
import { NetworkFilter } from "../ui/NetworkFilter.tsx"
import { Form } from "../ui/Form.tsx"
import { useResource } from "../ui/Resource.ts"
import { Empty, ErrorBox, Listing, Loading } from "../ui/States.tsx"

type Currency = (typeof currencies)[number]

/** Symbols offered while typing (the server's catalogue); any symbol or contract address the server knows is accepted. */
export const TokenList = () => (
  <datalist id="known-tokens">
    {tokenCatalogue.value.map(({ symbol }) => <option key={symbol} value={symbol} />)}
  </datalist>
)

const initial = () => {
  const params = new URLSearchParams(location.hash.split("?")[1] ?? "")
  const timeframe = params.get("timeframe")
  return {
    token: params.get("token") ?? defaultToken(),
    timeframe: (timeframes as ReadonlyArray<string>).includes(timeframe ?? "") ? (timeframe as Timeframe) : "1h",
    from: params.get("from") ?? "",
    to: params.get("to") ?? ""
  }
}

export const MarketScreen = () => {
  const start = initial()
  const search = useSignal(start.token)
  const token = useSignal(start.token)
  const network = useSignal<Network | "">("")
  const currency = useSignal<Currency>("USD")
  const timeframe = useSignal<Timeframe>(start.timeframe)
  const from = useSignal(start.from)
  const to = useSignal(start.to)
  const range = useSignal({ from: start.from, to: start.to })
  const trendingNetwork = useSignal<Network>(listedNetworks.value[0] ?? "solana")

  const record = useResource<MarketRecord>()
  const chart = useResource<Chart>()
  const trending = useResource<Trending>()

  // Another token or series: the figures on screen no longer answer the question, so they go.
  useEffect(() => record.set(undefined), [token.value, currency.value, network.value])
  useEffect(() => chart.set(undefined), [token.value, timeframe.value, currency.value, network.value, range.value])

  usePoll(
    () =>
      record.load(() =>
        get<MarketRecord>("/market-data", { token: token.value, currency: currency.value, network: network.value })
      ),
    5_000,
    [token.value, currency.value, network.value]
  )

  const hasRange = range.value.from !== "" || range.value.to !== ""
  usePoll(
    () =>
      chart.load(() =>
        get<Chart>("/market-data/chart", {
          token: token.value,
          timeframe: timeframe.value,
          currency: currency.value,
          network: network.value,
          from: isoFromInput(range.value.from),
          to: isoFromInput(range.value.to)
        })
      ),
    // A chosen past range does not move; the latest period does.
    hasRange ? 3_600_000 : 10_000,
    [token.value, timeframe.value, currency.value, network.value, range.value]
  )

  usePoll(
    () => trending.load(() => get<Trending>("/market-data/trending", { network: trendingNetwork.value, limit: 10 })),
    30_000,
    [trendingNetwork.value]
  )

  const data = record.data
  return (
    <div class="screen">
      <h1>Market</h1>
      <Form
        label="Token search"
        layout="toolbar"
        role="search"
        onSubmit={() => {
          token.value = search.value.trim()
        }}
      >
        <TextField
          label="Token (symbol or contract address)"
          value={search.value}
          onInput={(value) => (search.value = value)}
          list="known-tokens"
          required
        />
        <NetworkFilter value={network.value} onChange={(value) => (network.value = value)} />
        <SelectField label="Currency" value={currency.value} options={currencies} onChange={(value) => (currency.value = value)} />
        <button type="submit">Search</button>
      </Form>

      <Section title={data === undefined ? `Price of ${token.value}` : `Price of ${data.token}`}>
        <ErrorBox error={record.error} />
        {data === undefined
          ? (record.error === null ? <Loading what="price" /> : null)
          : (
            <dl class="stats" aria-live="off">
              <Stat label="Price" value={money(data.price, data.currency)} />
              <Stat label="24 h change" value={percent(data.change24h)} tone={data.change24h >= 0 ? "up" : "down"} />
              <Stat label="24 h volume" value={compact(data.volume24h, data.currency)} />
              <Stat label="Market cap" value={compact(data.marketCap, data.currency)} />
            </dl>
          )}
        {data?.extended === undefined ? null : (
          <div class="extended">
            <h3>On-chain detail</h3>
            <dl class="stats">
              <Stat label="Buy volume 24 h" value={compact(data.extended.buyVolume24h, data.currency)} />
              <Stat label="Sell volume 24 h" value={compact(data.extended.sellVolume24h, data.currency)} />
              <Stat label="Holders" value={count(data.extended.holders.count)} />
              <Stat label="Top 10 holders" value={`${data.extended.holders.top10Percent}%`} />
              <Stat label="Whale transactions 24 h" value={count(data.extended.whaleActivity.transactions24h)} />
              <Stat label="Whale net flow 24 h" value={compact(data.extended.whaleActivity.netFlow24h, data.currency)} />
              {Object.entries(data.extended.volumeByNetwork).map(([name, volume]) => (
                <Stat key={name} label={`Volume on ${name}`} value={compact(volume, data.currency)} />
              ))}
            </dl>
          </div>
        )}
      </Section>

      <Section title="Chart">
        <div class="toolbar">
          <Segmented label="Timeframe" value={timeframe.value} options={timeframes} onChange={(value) => (timeframe.value = value)} />
        </div>
        <Form
          label="Date range"
          layout="toolbar"
          onSubmit={() => {
            range.value = { from: from.value, to: to.value }
          }}
        >
          <TextField label="From (UTC)" type="datetime-local" value={from.value} onInput={(value) => (from.value = value)} />
          <TextField label="To (UTC)" type="datetime-local" value={to.value} onInput={(value) => (to.value = value)} />
          <button type="submit">Show range</button>
          <button
            type="button"
            class="secondary"
            disabled={!hasRange}
            onClick={() => {
              from.value = ""
              to.value = ""
              range.value = { from: "", to: "" }
            }}
          >
            Latest
          </button>
        </Form>
        <Listing
          what="chart"
          resource={chart}
          itemsOf={(series) => series.candles}
          empty={<Empty>No candles in this range. Choose another range, or Latest.</Empty>}
        >
          {(series) => (
            <CandleChart
              key={`${series.token}|${series.timeframe}|${series.currency}`}
              candles={series.candles}
              currency={series.currency}
              label={`${series.token} ${series.timeframe} candles in ${series.currency}`}
            />
          )}
        </Listing>
      </Section>

      <Section
        title="Trending"
        actions={
          <SelectField
            label="Trending network"
            value={trendingNetwork.value}
            options={offeredNetworks()}
            onChange={(value) => (trendingNetwork.value = value)}
          />
        }
      >
        <Listing
          what="trending tokens"
          resource={trending}
          itemsOf={(ranking) => ranking.tokens}
          empty={<Empty>No token trends on {trending.data?.network} yet.</Empty>}
        >
          {(ranking) => (
            <TableScroller label={"Trending table"}>
              <table class="cards">
                <caption>
                  Trending on {ranking.network}, updated {time(ranking.updatedAt)}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Rank</th>
                    <th scope="col">Token</th>
                    <th scope="col" class="num">Price (USD)</th>
                    <th scope="col" class="num">24 h change</th>
                    <th scope="col" class="num">24 h volume</th>
                  </tr>
                </thead>
                <tbody>
                  {ranking.tokens.map((row) => (
                    <tr key={row.token}>
                      <td data-label="Rank">{row.rank}</td>
                      <td data-label="Token">
                        <button
                          type="button"
                          class="link"
                          onClick={() => {
                            search.value = row.token
                            token.value = row.token
                          }}
                        >
                          {row.token}
                        </button>
                      </td>
                      <td class="num" data-label="Price (USD)">{money(row.price)}</td>
                      <td class={`num ${row.change24h >= 0 ? "up" : "down"}`} data-label="24 h change">{percent(row.change24h)}</td>
                      <td class="num" data-label="24 h volume">{compact(row.volume24h, "USD")}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroller>
          )}
        </Listing>
      </Section>
    </div>
  )
}
