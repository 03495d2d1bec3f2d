// Proves the webhook address rule's classifier and resolution: every IPv4 address is judged as Node's own
// `net.BlockList` judges it against the same special-purpose blocks (an independent matcher), and identically in
// its IPv4-mapped IPv6 forms and in the decimal, hex and octal forms the WHATWG URL parser turns into dotted quads;
// IPv6 special blocks, compressed and full forms; and `publicAddressesOf` with a resolver stand-in (a name with any
// private address is refused, `localhost` names without asking the resolver, a resolver failure is a refusal).
import { fc, test } from "@fast-check/vitest"
import { BlockList } from "node:net"
import { assert, describe, it } from "vitest"
import { AddressRefused, isPublicAddress, publicAddressesOf, type ResolveAll } from "../src/index.ts"

/** IANA's IPv4 special-purpose blocks that are not globally reachable, as CIDR text. */
const specialIPv4 = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.88.99.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4"
]
const reference = new BlockList()
for (const block of specialIPv4) {
  const [address, prefix] = block.split("/") as [string, string]
  reference.addSubnet(address, Number(prefix), "ipv4")
}

const dotted = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".")
const hex16 = (n: number) => n.toString(16)

describe("isPublicAddress", () => {
  it("refuses loopback, private, link-local, unique-local and the other special blocks", () => {
    const refused = [
      "127.0.0.1",
      "127.255.0.9",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "255.255.255.255",
      "224.0.0.1",
      "198.18.0.1",
      "::1",
      "::",
      "[::1]",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:a9fe:a9fe",
      "0:0:0:0:0:ffff:10.0.0.1",
      "::127.0.0.1",
      "fe80::1",
      "fe80::1%eth0",
      "fc00::1",
      "fd12:3456::1",
      "ff02::1",
      "2001:db8::1",
      "3fff::1",
      "2001::1",
      "64:ff9b::7f00:1",
      "64:ff9b:1::1",
      "2002:c0a8:101::1",
      "localhost",
      "example.com",
      ""
    ]
    for (const address of refused) assert.isFalse(isPublicAddress(address), address)
  })

  it("takes public IPv4 and IPv6 addresses, also when an IPv6 form carries a public IPv4 one", () => {
    const taken = [
      "8.8.8.8",
      "93.184.215.14",
      "172.32.0.1",
      "1.1.1.1",
      "2606:4700::1111",
      "2a00:1450:4001:81b::200e",
      "[2606:4700::1111]",
      "::ffff:8.8.8.8",
      "::ffff:808:808",
      "64:ff9b::808:808",
      "2002:808:808::1"
    ]
    for (const address of taken) assert.isTrue(isPublicAddress(address), address)
  })

  test.prop([fc.integer({ min: 0, max: 0xffff_ffff })])(
    "an IPv4 address is public exactly when no special block holds it, in every form it can be written",
    (n) => {
      const address = dotted(n)
      const expected = !reference.check(address, "ipv4")
      assert.strictEqual(isPublicAddress(address), expected)
      assert.strictEqual(isPublicAddress(`::ffff:${address}`), expected)
      assert.strictEqual(isPublicAddress(`[::ffff:${hex16(n >>> 16)}:${hex16(n & 0xffff)}]`), expected)
      // The forms a URL may carry its host in: the WHATWG parser (which fetch and node:http use)
      // reads them as this same dotted quad before the rule sees the host.
      for (const form of [String(n), `0x${n.toString(16)}`, `0${n.toString(8)}`]) {
        assert.strictEqual(new URL(`http://${form}/`).hostname, address, form)
      }
    }
  )

  test.prop([fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 })])(
    "an IPv6 address is judged the same whether written in full or compressed",
    (groups) => {
      const full = groups.map(hex16).join(":")
      const compressed = new URL(`http://[${full}]/`).hostname
      assert.strictEqual(isPublicAddress(compressed), isPublicAddress(full))
    }
  )

  test.prop([
    fc.oneof(
      fc.integer({ min: 0xfc00, max: 0xfdff }),
      fc.integer({ min: 0xfe80, max: 0xfeff }),
      fc.integer({ min: 0xff00, max: 0xffff }),
      fc.integer({ min: 0x0000, max: 0x00ff })
    ),
    fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 7, maxLength: 7 })
  ])("unique-local, link-local, site-local, multicast and the rest of ::/8 are never public", (first, rest) => {
    const groups = [first, ...rest]
    // Inside ::/8, the IPv4-mapped block and NAT64's prefix reach an IPv4 address: judged by it above.
    const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff
    fc.pre(!mapped && first !== 0x64)
    assert.isFalse(isPublicAddress(groups.map(hex16).join(":")))
  })
})

/** A resolver that answers from a table, and counts what it was asked. */
const resolver = (table: Record<string, ReadonlyArray<string>>) => {
  const asked: Array<string> = []
  const resolveAll: ResolveAll = async (hostname) => {
    asked.push(hostname)
    const addresses = table[hostname]
    if (addresses === undefined) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" })
    }
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))
  }
  return { asked, resolveAll }
}

const refusalOf = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise
  } catch (error) {
    assert.instanceOf(error, AddressRefused)
    return (error as Error).message
  }
  throw new Error("not refused")
}

describe("publicAddressesOf", () => {
  it("answers a public literal or a name whose every address is public", async () => {
    const { asked, resolveAll } = resolver({ "hooks.example": ["93.184.215.14", "2606:4700::1111"] })
    assert.deepStrictEqual(await publicAddressesOf("93.184.215.14", resolveAll), [
      { address: "93.184.215.14", family: 4 }
    ])
    assert.deepStrictEqual(await publicAddressesOf("[2606:4700::1111]", resolveAll), [
      { address: "2606:4700::1111", family: 6 }
    ])
    assert.deepStrictEqual(await publicAddressesOf("HOOKS.example.", resolveAll), [
      { address: "93.184.215.14", family: 4 },
      { address: "2606:4700::1111", family: 6 }
    ])
    assert.deepStrictEqual(asked, ["hooks.example"], "a literal needs no resolver")
  })

  it("refuses a private literal, a localhost name, a name with any private address, and a name that does not resolve", async () => {
    const { asked, resolveAll } = resolver({
      "mixed.example": ["93.184.215.14", "10.0.0.7"],
      "mapped.example": ["::ffff:127.0.0.1"],
      "empty.example": []
    })
    assert.include(await refusalOf(publicAddressesOf("127.0.0.1", resolveAll)), "127.0.0.1 is not a public address")
    assert.include(await refusalOf(publicAddressesOf("[::1]", resolveAll)), "::1")
    assert.include(await refusalOf(publicAddressesOf("localhost", resolveAll)), "loopback")
    assert.include(await refusalOf(publicAddressesOf("api.localhost", resolveAll)), "loopback")
    assert.include(await refusalOf(publicAddressesOf("mixed.example", resolveAll)), "10.0.0.7")
    assert.include(await refusalOf(publicAddressesOf("mapped.example", resolveAll)), "::ffff:127.0.0.1")
    assert.include(await refusalOf(publicAddressesOf("empty.example", resolveAll)), "cannot be resolved")
    assert.include(await refusalOf(publicAddressesOf("nowhere.example", resolveAll)), "ENOTFOUND")
    assert.deepStrictEqual(asked, ["mixed.example", "mapped.example", "empty.example", "nowhere.example"])
  })
})
