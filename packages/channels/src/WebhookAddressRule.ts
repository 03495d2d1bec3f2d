/**
 * The rule for where webhooks may go (docs/alerts.md#webhooks, docs/security.md#ssrf-through-webhooks):
 * unless private addresses are allowed, a URL's host must be a public IP address or a name whose
 * every address is public. The rule is applied when a subscription is created and again at every
 * delivery, by the very lookup the delivery's socket connects with, so that a name re-pointed
 * after the check (DNS rebinding) is caught: the connection goes to the addresses just checked.
 */
import { lookup as systemLookup } from "node:dns"
import { isIP, type LookupFunction } from "node:net"
import { isPublicAddress } from "./PublicAddress.ts"

/** One address a name resolves to. */
export interface ResolvedAddress {
  readonly address: string
  readonly family: 4 | 6
}

/** How names are resolved: every address of a name, as `dns.lookup` with `all: true` answers. */
export type ResolveAll = (hostname: string) => Promise<ReadonlyArray<ResolvedAddress>>

/** The operating system's resolver (`getaddrinfo`, with `/etc/hosts`): what a socket would use. */
export const systemResolveAll: ResolveAll = (hostname) =>
  new Promise((resolve, reject) =>
    systemLookup(hostname, { all: true, order: "verbatim" }, (error, addresses) => {
      if (error) reject(error)
      else resolve(addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 })))
    })
  )

export interface WebhookAddressRule {
  /** `WEBHOOK_ALLOW_PRIVATE_URLS`: every host is allowed, as on the simulator. */
  readonly allowPrivateUrls: boolean
  /** Where names are resolved (the system's resolver unless given). */
  readonly resolveAll?: ResolveAll | undefined
}

/** Why a URL's host may not receive webhooks. */
export class AddressRefused extends Error {
  override readonly name = "AddressRefused"
}

/** `localhost` and the names under it are loopback whatever a resolver says (RFC 6761). */
const isLocalhostName = (name: string): boolean => name === "localhost" || name.endsWith(".localhost")

/**
 * The addresses a webhook to `hostname` (as `URL.hostname` has it: IPv4 forms such as `2130706433`
 * or `0x7f.1` already normalised to dotted quads, IPv6 in brackets) may connect to, every one of
 * them public; rejects with `AddressRefused` saying why not. An IP literal is its own address.
 */
export const publicAddressesOf = async (
  hostname: string,
  resolveAll: ResolveAll = systemResolveAll
): Promise<ReadonlyArray<ResolvedAddress>> => {
  const host = hostname.replace(/^\[(.*)\]$/u, "$1").toLowerCase().replace(/\.$/u, "")
  const literal = isIP(host)
  if (literal !== 0) {
    if (!isPublicAddress(host)) throw new AddressRefused(`${host} is not a public address`)
    return [{ address: host, family: literal === 6 ? 6 : 4 }]
  }
  if (isLocalhostName(host)) throw new AddressRefused(`${host} is a loopback name`)
  let addresses: ReadonlyArray<ResolvedAddress>
  try {
    addresses = await resolveAll(host)
  } catch (error) {
    const code = (error as { readonly code?: unknown }).code
    throw new AddressRefused(`${host} cannot be resolved${typeof code === "string" ? ` (${code})` : ""}`)
  }
  if (addresses.length === 0) throw new AddressRefused(`${host} cannot be resolved`)
  const refused = addresses.find((resolved) => !isPublicAddress(resolved.address))
  if (refused !== undefined) throw new AddressRefused(`${host} resolves to ${refused.address}, not a public address`)
  return addresses
}

/**
 * A `lookup` for `http.request` that resolves with `resolveAll`, refuses a name with any address
 * that is not public, and hands the socket exactly the addresses it checked. Node calls it with
 * `all: true` when it tries several addresses (`autoSelectFamily`), otherwise for one.
 */
export const publicLookup =
  (resolveAll: ResolveAll = systemResolveAll): LookupFunction => (hostname, options, callback) => {
    // Node's overloads of the callback (one address, or all of them) in one signature.
    const answer = callback as (error: Error | null, address: string | Array<ResolvedAddress>, family?: number) => void
    publicAddressesOf(hostname, resolveAll).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6
          ? addresses.filter((resolved) => resolved.family === options.family)
          : [...addresses]
        if (options.all === true) answer(null, wanted)
        else if (wanted[0] === undefined) answer(new AddressRefused(`${hostname} has no address of that family`), "")
        else answer(null, wanted[0].address, wanted[0].family)
      },
      (error: Error) => answer(error, "")
    )
  }
