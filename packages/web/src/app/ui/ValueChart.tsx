/** A line of values over time (the portfolio's performance), drawn by lightweight-charts. */
import { AreaSeries, createChart, type UTCTimestamp } from "lightweight-charts"
import { useEffect, useRef } from "preact/hooks"
import { money, time } from "../Format.ts"
import { priceLabel, priceTicks, timeScale } from "./ChartAxes.ts"

export const ValueChart = (
  { points, currency, label }: {
    readonly points: ReadonlyArray<{ readonly timestamp: string; readonly value: number }>
    readonly currency: string
    readonly label: string
  }
) => {
  const host = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const chart = createChart(host.current!, {
      autoSize: true,
      layout: { background: { color: "transparent" }, textColor: "#1f2933", attributionLogo: false },
      grid: { vertLines: { color: "#eef1f4" }, horzLines: { color: "#eef1f4" } },
      timeScale: { ...timeScale, fixRightEdge: true },
      localization: { priceFormatter: priceLabel(currency), tickmarksPriceFormatter: priceTicks(currency) }
    })
    const series = chart.addSeries(AreaSeries, {
      lineColor: "#2458c6",
      topColor: "rgba(36,88,198,0.3)",
      bottomColor: "rgba(36,88,198,0.02)",
      // A short series shows its points, so two points do not pass for a measured straight line.
      pointMarkersVisible: points.length <= 30
    })
    // One point per second at most: the chart needs strictly increasing times.
    const seen = new Set<number>()
    series.setData(
      points.flatMap((point) => {
        const at = Math.floor(Date.parse(point.timestamp) / 1000)
        if (seen.has(at)) return []
        seen.add(at)
        return [{ time: at as UTCTimestamp, value: point.value }]
      })
    )
    chart.timeScale().fitContent()
    return () => chart.remove()
  }, [points, currency])
  const first = points[0]
  const last = points.at(-1)
  const summary = first === undefined || last === undefined
    ? "No points"
    : `from ${money(first.value, currency)} at ${time(first.timestamp)} to ${money(last.value, currency)} at ${time(last.timestamp)}`
  return (
    <figure class="chart">
      <div ref={host} class="chart-canvas" role="img" aria-label={`${label}: ${summary}`} />
      <figcaption class="attribution">
        Chart by <a href="https://www.tradingview.com/" rel="noreferrer">TradingView Lightweight Charts</a>
      </figcaption>
    </figure>
  )
}
