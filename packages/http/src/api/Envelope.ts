/**
 * The success envelope every JSON response carries: `{ success: true, data, timestamp }`, with the
 * timestamp in ISO 8601 UTC (market time on the simulator). `successEnvelope` is its one
 * definition: the schema documents it, and the JSON a responder writes around data it has already
 * rendered (`successEnvelopeJson`) is derived from it, so that the two cannot drift apart
 * (`test/Envelope.test.ts` holds them byte for byte).
 */
import { Schema } from "effect"

/** The schema of a success response whose `data` is `data`. */
export const Envelope = <S extends Schema.Top>(data: S) =>
  Schema.Struct({ success: Schema.Literal(true), data, timestamp: Schema.String })

/** A success envelope as the server writes it: `data`, stamped with the market clock. */
export interface Enveloped<A> {
  readonly success: true
  readonly data: A
  readonly timestamp: string
}

/** `data` in the success envelope, stamped `timestamp` (ISO 8601). */
export const successEnvelope = <A>(data: A, timestamp: string): Enveloped<A> => ({ success: true, data, timestamp })

// The envelope's JSON with a mark where the data goes and one where the timestamp goes, split at
// the marks once: a response is then three concatenations.
const DATA_MARK = "\u0000data"
const TIMESTAMP_MARK = "\u0000timestamp"
const [beforeData, afterDataMark] = JSON.stringify(successEnvelope(DATA_MARK, TIMESTAMP_MARK)).split(
  JSON.stringify(DATA_MARK)
) as [string, string]
const [beforeTimestamp, afterTimestamp] = afterDataMark.split(JSON.stringify(TIMESTAMP_MARK)) as [string, string]

/**
 * `JSON.stringify(successEnvelope(data, timestamp))`, given `data` already rendered as JSON. The
 * timestamp is written as a JSON string; an ISO 8601 timestamp has nothing to escape.
 */
export const successEnvelopeJson = (dataJson: string, timestamp: string): string =>
  `${beforeData}${dataJson}${beforeTimestamp}"${timestamp}"${afterTimestamp}`
