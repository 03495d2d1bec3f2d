/**
 * Axis labels that stay readable on a narrow screen, shared by the charts: times in UTC (the
 * market's clock) as short marks ("2026", "Jan", "Jan 3", "14:00"), and prices with only the
 * significant digits they need, in compact notation ("$1.5496M"), so the price scale does not eat
 * a phone's width.
 */
import { TickMarkType, type Time, type UTCTimestamp } from "lightweight-charts"

const utc = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat("en-US", { timeZone: "UTC", ...options })
const year = utc({ year: "numeric" })
const month = utc({ month: "short" })
const day = utc({ month: "short", day: "numeric" })
const minute = utc({ hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
const second = utc({ hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" })

/** The time scale's tick marks, in UTC. */
export const timeTick = (time: Time, type: TickMarkType): string => {
  const at = new Date((time as UTCTimestamp) * 1000)
  switch (type) {
    case TickMarkType.Year:
      return year.format(at)
    case TickMarkType.Month:
      return month.format(at)
    case TickMarkType.DayOfMonth:
      return day.format(at)
    case TickMarkType.Time:
      return minute.format(at)
    case TickMarkType.TimeWithSeconds:
      return second.format(at)
  }
}

/**
 * The time scale both charts use: UTC tick marks, and the left edge held at the first point, which
 * also keeps the first label whole (the chart shifts a label at a fixed edge inside the axis, where
 * a free edge would cut "2026" to "026" on a phone).
 */
export const timeScale = { timeVisible: true, tickMarkFormatter: timeTick, fixLeftEdge: true } as const

const compactPrice = (value: number, currency: string, digits: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency, notation: "compact", maximumSignificantDigits: digits })
    .format(value)

/** A price label (the last value, the crosshair): compact, 6 significant digits. */
export const priceLabel = (currency: string) => (value: number): string => compactPrice(value, currency, 6)

/** The price scale's tick marks: the fewest significant digits (3 to 8) that tell every tick apart. */
export const priceTicks = (currency: string) => (values: ReadonlyArray<number>): Array<string> => {
  for (let digits = 3; digits < 8; digits++) {
    const labels = values.map((value) => compactPrice(value, currency, digits))
    if (new Set(labels).size === labels.length) return labels
  }
  return values.map((value) => compactPrice(value, currency, 8))
}
