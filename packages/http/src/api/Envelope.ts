/**
 * The success envelope every JSON response carries: `{ success: true, data, timestamp }`, with the
 * timestamp in ISO 8601 UTC (market time on the simulator).
 */
import { Schema } from "effect"

/** The schema of a success response whose `data` is `data`. */
export const Envelope = <S extends Schema.Top>(data: S) =>
  Schema.Struct({ success: Schema.Literal(true), data, timestamp: Schema.String })

export interface Enveloped<A> {
  readonly success: true
  readonly data: A
  readonly timestamp: string
}
