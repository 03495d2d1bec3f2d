/**
 * Content negotiation on `Accept-Encoding` (RFC 9110, section 12.5.3) between the codings a file is
 * stored in: the client's weights (`q`) decide, `*` stands for every coding it does not name, a
 * weight of 0 refuses, and among equal weights the smaller coding wins (brotli, then gzip, then the
 * file as it is). A request without the header gets the file as it is, as a client that sends none
 * (a script, `curl` without `--compressed`) may not decode anything else.
 */

/** A coding the interface's files are stored in, `identity` being the file as it is. */
export type ContentEncoding = "br" | "gzip" | "identity"

/**
 * The weight of `identity` when the client names neither it nor `*`: acceptable (RFC 9110), but
 * after any coding it does name.
 */
const LEAST = 0.001

/** Smallest first: the order that breaks a tie between equal weights. */
const preference: ReadonlyArray<ContentEncoding> = ["br", "gzip", "identity"]

const weightOf = (parameters: ReadonlyArray<string>): number => {
  for (const parameter of parameters) {
    const [name, value] = parameter.split("=").map((part) => part.trim())
    if (name?.toLowerCase() !== "q" || value === undefined) continue
    const weight = Number(value)
    return /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value) && weight >= 0 && weight <= 1 ? weight : 0
  }
  return 1
}

/** The client's weight for each coding it names (`x-gzip` counted as `gzip`), and for `*`. */
const weights = (header: string): ReadonlyMap<string, number> => {
  const named = new Map<string, number>()
  for (const item of header.split(",")) {
    const [coding, ...parameters] = item.split(";")
    const name = coding?.trim().toLowerCase()
    if (name === undefined || name === "") continue
    named.set(name === "x-gzip" ? "gzip" : name, weightOf(parameters))
  }
  return named
}

/**
 * The coding to send, among `available` (`identity` is always available): the one the client
 * weighs highest, the smallest among equals. When the client refuses every coding, `identity`
 * still: an answer it may not want beats none (RFC 9110 allows either).
 */
export const negotiateEncoding = (
  header: string | undefined,
  available: ReadonlySet<ContentEncoding>
): ContentEncoding => {
  if (header === undefined) return "identity"
  const named = weights(header)
  const wildcard = named.get("*")
  const weightFor = (coding: ContentEncoding): number =>
    named.get(coding) ?? wildcard ?? (coding === "identity" ? LEAST : 0)
  let best: ContentEncoding = "identity"
  let bestWeight = 0
  for (const coding of preference) {
    if (coding !== "identity" && !available.has(coding)) continue
    const weight = weightFor(coding)
    if (weight > bestWeight) {
      best = coding
      bestWeight = weight
    }
  }
  return best
}
