/**
 * How a record is kept in its `doc` column: JSON whose bigints (token amounts in base units) are
 * written as `{"$bigint":"<decimal digits>"}`, so no amount ever passes through a float.
 */

const BIGINT_TAG = "$bigint"

/** The record as JSON text, bigints as exact decimal strings. */
export const encodeRecord = (record: unknown): string =>
  JSON.stringify(record, (_key, value) => typeof value === "bigint" ? { [BIGINT_TAG]: value.toString() } : value)

/** The record back from {@link encodeRecord}'s text, its bigints restored. */
export const decodeRecord = <A>(text: string): A =>
  JSON.parse(
    text,
    (_key, value) =>
      value !== null && typeof value === "object" && !Array.isArray(value) && typeof value[BIGINT_TAG] === "string" &&
        Object.keys(value).length === 1
        ? BigInt(value[BIGINT_TAG])
        : value
  ) as A
