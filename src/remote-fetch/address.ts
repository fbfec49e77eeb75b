// Which network addresses the server may fetch from. The rule is an allow-list of
// ranges, not a deny-list: only addresses ipaddr.js classifies as ordinary `unicast`
// pass, so loopback, private (RFC 1918), link-local (169.254/16 with the cloud
// metadata address, fe80::/10), unique-local (fc00::/7), multicast, broadcast,
// unspecified (0.0.0.0, ::), carrier-grade NAT (100.64/10), documentation, reserved
// and the IPv6 forms that embed an IPv4 address (NAT64 64:ff9b::/96, 6to4 2002::/16,
// Teredo 2001::/32, IPv4-compatible ::/96, IPv4-translated ::ffff:0:0:0/96) are all
// refused whatever IPv4 address they carry, and so is any range the IANA registries
// add later. ipaddr.js names ::/96 `unicast` (and reads "::a.b.c.d" as IPv4-mapped),
// so that range is checked here.
// IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged by the IPv4 address it carries.
// Operators widen the rule with REMOTE_FETCH_ALLOW (hosts, addresses, CIDR ranges).
import ipaddr from 'ipaddr.js'

export type ParsedAddress = ipaddr.IPv4 | ipaddr.IPv6

/** The one range name that may be fetched from without an operator's allowance. */
const PUBLIC_RANGE = 'unicast'

export interface AddressVerdict {
  allowed: boolean
  /** The normalised address (IPv4-mapped IPv6 reduced to IPv4). */
  address: string
  /** ipaddr.js's range name, e.g. "loopback", "private", "linkLocal", "unicast". */
  range: string
  /** True when allowed only because REMOTE_FETCH_ALLOW names it. */
  byAllowList: boolean
}

/** Human names for the refused ranges, for error messages. */
const RANGE_NAMES: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private-network address',
  linkLocal: 'a link-local address (this includes cloud metadata services)',
  uniqueLocal: 'a unique-local (private) IPv6 address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  unspecified: 'the unspecified address',
  carrierGradeNat: 'a carrier-grade NAT address',
  reserved: 'a reserved address',
  benchmarking: 'a benchmarking address',
  rfc6052: 'an IPv6 address embedding an IPv4 address (NAT64)',
  rfc6145: 'an IPv6 address embedding an IPv4 address',
  '6to4': 'a 6to4 address embedding an IPv4 address',
  teredo: 'a Teredo address embedding an IPv4 address',
  ipv4Mapped: 'an IPv4-mapped IPv6 address',
  ipv4Compatible: 'an IPv4-compatible IPv6 address (::a.b.c.d, embedding an IPv4 address)'
}

export function describeRange (range: string): string {
  return RANGE_NAMES[range] ?? `an address in the "${range}" range`
}

/**
 * Parses an address literal in any spelling ipaddr.js reads: dotted, short (127.1),
 * decimal (2130706433), hex (0x7f000001), octal parts, IPv6 with or without brackets.
 * IPv4-mapped IPv6 is reduced to its IPv4 address. Undefined when not an address.
 */
export function parseAddress (text: string): ParsedAddress | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text
  // Zone ids (fe80::1%eth0) never name a public address.
  const unzoned = bare.includes('%') ? bare.slice(0, bare.indexOf('%')) : bare
  const spelled = unzoned.includes(':') ? dottedTailAsHex(unzoned) : unzoned
  if (spelled === undefined || !ipaddr.isValid(spelled)) return undefined
  try {
    const parsed = ipaddr.parse(spelled)
    if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
      return (parsed as ipaddr.IPv6).toIPv4Address()
    }
    return parsed
  } catch {
    return undefined
  }
}

/**
 * "::127.0.0.1" → "::7f00:1": IPv6 text ending in a dotted IPv4 address, with that tail
 * as two hex groups. ipaddr.js reads any dotted tail as IPv4-mapped (::ffff:a.b.c.d),
 * which turned the IPv4-compatible ::8.8.8.8 into a public IPv4 address.
 */
function dottedTailAsHex (text: string): string | undefined {
  const tail = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text)
  if (!tail) return text
  const octets = tail.slice(2, 6).map(Number)
  if (octets.some((o) => o > 255)) return undefined
  const hex = (a: number, b: number) => ((a << 8) | b).toString(16)
  return `${tail[1]}${hex(octets[0]!, octets[1]!)}:${hex(octets[2]!, octets[3]!)}`
}

/** ::/96 except :: and ::1 (which ipaddr.js names): the deprecated IPv4-compatible IPv6 (RFC 4291 §2.5.5.1). */
function isIpv4Compatible (address: ParsedAddress): boolean {
  if (address.kind() !== 'ipv6') return false
  const parts = (address as ipaddr.IPv6).parts
  return parts.slice(0, 6).every((p) => p === 0) && !(parts[6] === 0 && parts[7]! <= 1)
}

export interface AllowList {
  /** Lower-cased host names, exact, or suffixes given as "*.example.com" (stored as ".example.com"). */
  hosts: string[]
  ranges: Array<[ParsedAddress, number]>
}

export const EMPTY_ALLOW_LIST: AllowList = Object.freeze({ hosts: [], ranges: [] }) as AllowList

const HOST_NAME = /^(\*\.)?(?=.{1,253}$)([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/i

/**
 * Parses REMOTE_FETCH_ALLOW entries: a host name ("media.internal", "*.corp.example"),
 * an address in any spelling, or a CIDR range ("10.0.0.0/8", "fd00::/8").
 * Throws an Error naming the first entry it cannot read.
 */
export function parseAllowList (entries: readonly string[]): AllowList {
  const list: AllowList = { hosts: [], ranges: [] }
  for (const raw of entries) {
    const entry = raw.trim()
    if (entry === '') continue
    if (entry.includes('/')) {
      const [addr, bits] = entry.split('/')
      const parsed = parseAddress(addr!)
      const prefix = Number(bits)
      const max = addr!.includes(':') ? 128 : 32
      if (!parsed || !/^\d{1,3}$/.test(bits ?? '') || prefix > max) throw new Error(`"${entry}" is not a CIDR range such as 10.0.0.0/8 or fd00::/8`)
      // A mapped IPv6 range (::ffff:10.0.0.0/104) is kept as the IPv4 range it covers.
      const adjusted = parsed.kind() === 'ipv4' && addr!.includes(':') ? Math.max(0, prefix - 96) : prefix
      list.ranges.push([parsed, adjusted])
      continue
    }
    const parsed = parseAddress(entry)
    if (parsed) {
      list.ranges.push([parsed, parsed.kind() === 'ipv4' ? 32 : 128])
      continue
    }
    if (!HOST_NAME.test(entry)) throw new Error(`"${entry}" is neither a host name, an address nor a CIDR range`)
    const host = entry.toLowerCase().replace(/\.$/, '')
    list.hosts.push(host.startsWith('*.') ? host.slice(1) : host)
  }
  return list
}

export function hostIsAllowed (list: AllowList, hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '')
  return list.hosts.some((h) => h.startsWith('.') ? host.endsWith(h) && host.length > h.length : host === h)
}

function inAllowedRange (list: AllowList, address: ParsedAddress): boolean {
  return list.ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base as never, bits))
}

/** The verdict for one address literal; undefined when the text is not an address. */
export function classifyAddress (text: string, list: AllowList = EMPTY_ALLOW_LIST): AddressVerdict | undefined {
  const parsed = parseAddress(text)
  if (!parsed) return undefined
  const range = isIpv4Compatible(parsed) ? 'ipv4Compatible' : parsed.range()
  const address = parsed.toString()
  if (range === PUBLIC_RANGE) return { allowed: true, address, range, byAllowList: false }
  const byAllowList = inAllowedRange(list, parsed)
  return { allowed: byAllowList, address, range, byAllowList }
}
