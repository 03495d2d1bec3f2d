/**
 * Whether an IP address is public: globally reachable unicast, not loopback, private, link-local,
 * unique-local, carrier-grade NAT, documentation, benchmarking, multicast, reserved or unspecified
 * (IANA's special-purpose address registries, docs/security.md#ssrf-through-webhooks). An IPv6
 * address that carries an IPv4 one (IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4
 * `2002::/16`) is judged by the IPv4 address it reaches. Text that is not an IP address is not
 * public: the caller resolves names first.
 */
import { isIPv4, isIPv6 } from "node:net"

/** An IPv4 block: its first address as a 32-bit number and its prefix length. */
type Block4 = readonly [base: number, prefix: number]

const ipv4Number = (a: number, b: number, c: number, d: number) => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0

/** The IPv4 blocks that are not globally reachable unicast. */
const nonPublic4: ReadonlyArray<Block4> = [
  [ipv4Number(0, 0, 0, 0), 8], // "this network"
  [ipv4Number(10, 0, 0, 0), 8], // private
  [ipv4Number(100, 64, 0, 0), 10], // shared address space (carrier-grade NAT)
  [ipv4Number(127, 0, 0, 0), 8], // loopback
  [ipv4Number(169, 254, 0, 0), 16], // link-local (cloud metadata services live here)
  [ipv4Number(172, 16, 0, 0), 12], // private
  [ipv4Number(192, 0, 0, 0), 24], // IETF protocol assignments
  [ipv4Number(192, 0, 2, 0), 24], // documentation (TEST-NET-1)
  [ipv4Number(192, 88, 99, 0), 24], // 6to4 relay anycast (deprecated)
  [ipv4Number(192, 168, 0, 0), 16], // private
  [ipv4Number(198, 18, 0, 0), 15], // benchmarking
  [ipv4Number(198, 51, 100, 0), 24], // documentation (TEST-NET-2)
  [ipv4Number(203, 0, 113, 0), 24], // documentation (TEST-NET-3)
  [ipv4Number(224, 0, 0, 0), 4], // multicast
  [ipv4Number(240, 0, 0, 0), 4] // reserved, and the broadcast address
]

const inBlock4 = (address: number, [base, prefix]: Block4): boolean =>
  prefix === 0 || (address >>> (32 - prefix)) === (base >>> (32 - prefix))

/** Whether a 32-bit IPv4 address is public. */
export const isPublicIPv4Number = (address: number): boolean => !nonPublic4.some((block) => inBlock4(address, block))

/** Dotted-quad text (as `node:net` accepts it) to its 32-bit number. */
const parseIPv4 = (text: string): number => {
  const [a, b, c, d] = text.split(".").map(Number) as [number, number, number, number]
  return ipv4Number(a, b, c, d)
}

/** Colon-separated hex groups to numbers. */
const groupsOf = (part: string) => part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16))

/** IPv6 text (as `node:net` accepts it, without a zone) to its eight 16-bit groups. */
const parseIPv6 = (text: string): ReadonlyArray<number> => {
  let body = text
  const tail: Array<number> = []
  // An embedded dotted quad (`::ffff:127.0.0.1`) is the last two groups.
  const lastColon = body.lastIndexOf(":")
  const last = body.slice(lastColon + 1)
  if (last.includes(".")) {
    const v4 = parseIPv4(last)
    tail.push(v4 >>> 16, v4 & 0xffff)
    body = body.slice(0, lastColon + 1)
    if (!body.endsWith("::")) body = body.slice(0, -1)
  }
  const gap = body.indexOf("::")
  const head = groupsOf(gap === -1 ? body : body.slice(0, gap))
  const rest = gap === -1 ? [] : groupsOf(body.slice(gap + 2))
  const zeros = gap === -1 ? 0 : 8 - head.length - rest.length - tail.length
  return [...head, ...Array.from({ length: zeros }, () => 0), ...rest, ...tail]
}

/** The IPv4 address two 16-bit groups carry. */
const embedded = (high: number, low: number) => ((high << 16) | low) >>> 0

/** Whether eight 16-bit IPv6 groups are a public address. */
export const isPublicIPv6Groups = (groups: ReadonlyArray<number>): boolean => {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number]
  // IPv4-mapped ::ffff:a.b.c.d: a dual-stack socket connects to the IPv4 address itself.
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) {
    return isPublicIPv4Number(embedded(g6, g7))
  }
  // NAT64's well-known prefix 64:ff9b::/96 reaches the IPv4 address in its last 32 bits.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return isPublicIPv4Number(embedded(g6, g7))
  }
  // 6to4 2002:AABB:CCDD::/48 reaches the IPv4 address AA.BB.CC.DD.
  if (g0 === 0x2002) return isPublicIPv4Number(embedded(g1, g2))
  // Global unicast is 2000::/3; everything else (::/8 with loopback and the unspecified address,
  // unique-local fc00::/7, link-local fe80::/10, site-local fec0::/10, multicast ff00::/8, the
  // local-use NAT64 prefix 64:ff9b:1::/48 and the reserved rest) is not public.
  if ((g0 & 0xe000) !== 0x2000) return false
  // Inside it: IETF protocol assignments (Teredo, benchmarking, ORCHID) 2001::/23, documentation
  // 2001:db8::/32 and 3fff::/20.
  if (g0 === 0x2001 && g1 < 0x200) return false
  if (g0 === 0x2001 && g1 === 0xdb8) return false
  if ((g0 & 0xfff0) === 0x3ff0) return false
  return true
}

/**
 * Whether `address` (IPv4 dotted-quad or IPv6 text, brackets and a `%zone` allowed) is a public
 * IP address. Anything else, a name included, is not.
 */
export const isPublicAddress = (address: string): boolean => {
  const bare = address.replace(/^\[(.*)\]$/u, "$1").replace(/%.*$/u, "")
  if (isIPv4(bare)) return isPublicIPv4Number(parseIPv4(bare))
  if (isIPv6(bare)) return isPublicIPv6Groups(parseIPv6(bare.toLowerCase()))
  return false
}
