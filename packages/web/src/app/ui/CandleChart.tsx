/**
 * A candlestick chart with volume beneath, drawn by lightweight-charts on a canvas. The library's
 * logo is off (it injects an inline style the page's policy refuses); the caption links to its
 * makers instead, as its licence asks. A refresh that
 * only changes the last candle or adds one updates the series in place (the live view), anything
 * else replaces the data. The canvas is one image to a screen reader, so the figure carries a text
 * summary (first and last candle, range) as its accessible description.
 *
 * Each full draw leaves `performance` marks `chart-data` (data handed over), `chart-set` (the
 * library took it) and `chart-drawn` (the animation frame in which the chart painted its canvas),
 * which the benchmark reads (docs/performance.md).
 */
import {
  CandlestickSeries,
  createChart,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp
} from "lightweight-charts"
import { useEffect, useRef } from "preact/hooks"
import type { Candle } from "../api/Types.ts"
import { money, time } from "../Format.ts"
import { priceLabel, priceTicks, timeScale } from "./ChartAxes.ts"

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000) as UTCTimestamp

const UP = "#1a7f4b"
const DOWN = "#c0392b"

const toBar = (candle: Candle) => ({
  time: seconds(candle.timestamp),
  open: candle.open,
  high: candle.high,
  low: candle.low,
  close: candle.close
})

const toVolume = (candle: Candle) => ({
  time: seconds(candle.timestamp),
  value: candle.volume,
  color: candle.close >= candle.open ? "rgba(26,127,75,0.45)" : "rgba(192,57,43,0.45)"
})

interface Drawn {
  readonly chart: IChartApi
  readonly candles: ISeriesApi<"Candlestick">
  readonly volume: ISeriesApi<"Histogram">
  shown: ReadonlyArray<Candle>
}

export const CandleChart = (
  { candles, currency, label }: { readonly candles: ReadonlyArray<Candle>; readonly currency: string; readonly label: string }
) => {
  const host = useRef<HTMLDivElement>(null)
  const drawn = useRef<Drawn | null>(null)

  useEffect(() => {
    const element = host.current!
    // Sized at creation, so the first frame after the data paints at the final size; a resize
    // observer follows the layout afterwards (the library's `autoSize` would size it a frame late).
    const chart = createChart(element, {
      width: element.clientWidth,
      height: element.clientHeight,
      layout: { background: { color: "transparent" }, textColor: "#1f2933", attributionLogo: false },
      grid: { vertLines: { color: "#eef1f4" }, horzLines: { color: "#eef1f4" } },
      timeScale: { ...timeScale, secondsVisible: false, rightOffset: 4 },
      localization: { priceFormatter: priceLabel(currency), tickmarksPriceFormatter: priceTicks(currency) }
    })
    const candleSeries = chart.addSeries(CandlestickSeries, {
      upColor: UP,
      downColor: DOWN,
      borderVisible: false,
      wickUpColor: UP,
      wickDownColor: DOWN
    })
    const volume = chart.addSeries(HistogramSeries, {
      priceFormat: { type: "volume" },
      priceScaleId: "volume",
      // The price scale is in money; a volume's label there would read as a price.
      lastValueVisible: false,
      priceLineVisible: false
    })
    chart.priceScale("volume").applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } })
    candleSeries.priceScale().applyOptions({ scaleMargins: { top: 0.05, bottom: 0.25 } })
    drawn.current = { chart, candles: candleSeries, volume, shown: [] }
    const resizes = new ResizeObserver(() => chart.resize(element.clientWidth, element.clientHeight))
    resizes.observe(element)
    return () => {
      resizes.disconnect()
      chart.remove()
      drawn.current = null
    }
  }, [currency])

  useEffect(() => {
    const current = drawn.current
    if (current === null) return
    const before = current.shown
    const sameStart = before.length > 0 && candles.length > 0 && before[0]!.timestamp === candles[0]!.timestamp
    const grows = candles.length - before.length
    if (sameStart && (grows === 0 || grows === 1) && before.length > 1) {
      // The live case: the last candle moved, or the next one opened.
      for (const candle of candles.slice(before.length - 1)) {
        current.candles.update(toBar(candle))
        current.volume.update(toVolume(candle))
      }
    } else {
      performance.mark("chart-data")
      current.candles.setData(candles.map(toBar))
      current.volume.setData(candles.map(toVolume))
      current.chart.timeScale().fitContent()
      performance.mark("chart-set")
      // The chart paints its canvas in the next animation frame, in a callback queued before this one.
      requestAnimationFrame(() => {
        performance.mark("chart-drawn")
        host.current?.setAttribute("data-drawn", String(candles.length))
      })
    }
    current.shown = candles
  }, [candles, currency])

  const first = candles[0]
  const last = candles.at(-1)
  const summary = first === undefined || last === undefined
    ? "No candles"
    : `${candles.length} candles from ${time(first.timestamp)} to ${time(last.timestamp)}; last close ${
      money(last.close, currency)
    }, high ${money(Math.max(...candles.map((c) => c.high)), currency)}, low ${
      money(Math.min(...candles.map((c) => c.low)), currency)
    }`

  return (
    <figure class="chart" aria-label={label}>
      <div ref={host} class="chart-canvas" role="img" aria-label={`${label}: ${summary}`} />
      <figcaption class="attribution">
        Chart by <a href="https://www.tradingview.com/" rel="noreferrer">TradingView Lightweight Charts</a>
      </figcaption>
    </figure>
  )
}
