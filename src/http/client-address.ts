// Which per-IP bucket a client address counts against. IPv4 addresses are their own
// bucket; an IPv4 address written as IPv6 (::ffff:a.b.c.d, what a dual-stack socket
// reports) is the same client as a.b.c.d; IPv6 clients are grouped by prefix (/64 by
// default), since one subscriber or one server commonly holds a whole /64 and could
// otherwise take a fresh bucket per request (RFC 6177: end sites get /48 to /64).
import ipaddr from 'ipaddr.js'

export const DEFAULT_IPV6_PREFIX = 64

export function clientBucket (address: string, ipv6Prefix = DEFAULT_IPV6_PREFIX): string {
  if (!address.includes(':')) return address
  if (address.startsWith('::ffff:') && address.includes('.')) return address.slice(7)
  let parsed: ipaddr.IPv4 | ipaddr.IPv6
  try {
    parsed = ipaddr.parse(address)
  } catch {
    // Not an address (a test's or a proxy's odd value): its own bucket, as before.
    return address
  }
  if (parsed.kind() === 'ipv4') return parsed.toString()
  const v6 = parsed as ipaddr.IPv6
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString()
  if (ipv6Prefix >= 128) return v6.toString()
  const parts = v6.parts.map((part, i) => {
    const bits = Math.min(16, Math.max(0, ipv6Prefix - i * 16))
    return bits === 0 ? 0 : part & (0xffff << (16 - bits)) & 0xffff
  })
  return `${new ipaddr.IPv6(parts).toString()}/${ipv6Prefix}`
}

/**
 * Whether an address is one of `ranges` (addresses and CIDR ranges, as TRUST_PROXY lists
 * them); an IPv4 address written as IPv6 (::ffff:a.b.c.d) is matched as a.b.c.d.
 */
export function addressMatcher (ranges: readonly string[]): (address: string) => boolean {
  const parsed = ranges.map((range) => range.includes('/') ? ipaddr.parseCIDR(range) : ((a) => [a, a.kind() === 'ipv4' ? 32 : 128] as [ipaddr.IPv4 | ipaddr.IPv6, number])(ipaddr.parse(range)))
  return (address) => {
    let a: ipaddr.IPv4 | ipaddr.IPv6
    try {
      a = ipaddr.process(address)
    } catch {
      return false
    }
    return parsed.some(([base, bits]) => base.kind() === a.kind() && a.match(base, bits))
  }
}
