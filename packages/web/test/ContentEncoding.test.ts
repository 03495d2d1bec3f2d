// Proves `negotiateEncoding` follows RFC 9110's `Accept-Encoding` rules on the headers browsers,
// proxies and scripts send: weights decide, `*` covers the unnamed codings, `q=0` refuses, ties go
// to the smaller coding, identity is acceptable unless refused, and no header means identity.
import { describe, expect, it } from "vitest"
import { type ContentEncoding, negotiateEncoding } from "../src/ContentEncoding.ts"

const both: ReadonlySet<ContentEncoding> = new Set(["br", "gzip"])
const gzipOnly: ReadonlySet<ContentEncoding> = new Set(["gzip"])

describe("negotiateEncoding", () => {
  it.each(
    [
      [undefined, both, "identity"],
      ["", both, "identity"],
      ["gzip, deflate, br, zstd", both, "br"],
      ["gzip, deflate", both, "gzip"],
      ["GZIP", both, "gzip"],
      ["x-gzip", both, "gzip"],
      ["br;q=0.5, gzip;q=0.8", both, "gzip"],
      ["br;q=0.5, gzip;q=0.8, identity", both, "identity"],
      ["br;q=0, gzip", both, "gzip"],
      ["br", gzipOnly, "identity"],
      ["*", both, "br"],
      ["*;q=0.2, br;q=0", both, "gzip"],
      ["identity", both, "identity"],
      ["identity;q=0, gzip;q=0.1", both, "gzip"],
      ["deflate", both, "identity"],
      ["br;q=nonsense, gzip", both, "gzip"],
      ["br;q=1.5, gzip", both, "gzip"],
      ["gzip;q=0.001", both, "gzip"]
    ] as const
  )("Accept-Encoding %j with %j stored: %s", (header, available, expected) => {
    expect(negotiateEncoding(header, available)).toBe(expected)
  })

  it("still answers identity when every coding is refused", () => {
    expect(negotiateEncoding("identity;q=0", both)).toBe("identity")
    expect(negotiateEncoding("*;q=0", both)).toBe("identity")
  })
})
