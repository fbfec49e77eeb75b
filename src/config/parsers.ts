// How a setting's text becomes its value: one parser per kind of setting (a whole number
// within bounds, a size, a duration, true/false, a URL, a list…), each with the message a
// bad value gets. A parser sees only text that is set: an unset or blank variable takes
// the setting's default (./settings.ts) without reaching it. The messages quote what the
// operator wrote, so that the one line the start stops with shows the mistake.
import net from 'node:net'
import ipaddr from 'ipaddr.js'
import { type AllowList, parseAllowList } from '../remote-fetch/address.js'
import { formatDuration, parseDuration, parseSize } from './units.js'

export class ConfigError extends Error {
  constructor (readonly variable: string, message: string) {
    super(`Invalid configuration: ${variable} ${message}`)
    this.name = 'ConfigError'
  }
}

/** Reads the text of the variable `name`; throws a ConfigError naming it when the text is bad. */
export type Parser<T> = (raw: string, name: string) => T

/** The parser of a setting whose default is "unset": its value may also be undefined. */
export function optional<T> (parse: Parser<T>): Parser<T | undefined> {
  return parse
}

/** A whole number from min to max ("1e3", "-1" and "1.5" are refused). */
export function integer (min: number, max: number): Parser<number> {
  return (raw, name) => {
    if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number between ${min} and ${max}, got "${raw}"`)
    const value = Number(raw)
    if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`)
    return value
  }
}

/** Bytes, written as parseSize reads them (2mb, 512kb, 1048576), from min to max. */
export function size (min: number, max: number): Parser<number> {
  return (raw, name) => {
    const value = parseSize(raw)
    if (value === undefined) throw new ConfigError(name, `must be a size such as 1048576, 512kb or 2mb, got "${raw}"`)
    if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max} bytes, got ${value}`)
    return value
  }
}

/** Milliseconds, written as parseDuration reads them ("1 minute", "30s", "1h"), from min to max. */
export function duration (min: number, max: number): Parser<number> {
  return (raw, name) => {
    const text = raw.trim()
    const value = parseDuration(text)
    if (value === undefined || value < min || value > max) {
      throw new ConfigError(name, `must be a duration between ${formatDuration(min)} and ${formatDuration(max)}, such as "1 minute", "30s" or "1h", got "${text}"`)
    }
    return value
  }
}

const TRUE = ['1', 'true', 'yes', 'on']
const FALSE = ['0', 'false', 'no', 'off']

export function boolean (): Parser<boolean> {
  return (raw, name) => {
    const text = raw.trim().toLowerCase()
    if (TRUE.includes(text)) return true
    if (FALSE.includes(text)) return false
    throw new ConfigError(name, `must be true or false, got "${raw}"`)
  }
}

/** One of `values`, in any case; `explain` says what each means, for the message. */
export function oneOf<V extends string> (values: readonly V[], explain?: string): Parser<V> {
  return (raw, name) => {
    const text = raw.trim().toLowerCase() as V
    if (values.includes(text)) return text
    throw new ConfigError(name, `must be ${explain ?? `one of ${values.join(', ')}`}, got "${raw}"`)
  }
}

/** Any text, trimmed (a path). */
export function trimmed (): Parser<string> {
  return (raw) => raw.trim()
}

/** Text matching `pattern` once trimmed; `must` completes "NAME must …" for the message. */
export function text (pattern: RegExp, must: string, quote: 'trimmed' | 'as written' = 'trimmed'): Parser<string> {
  return (raw, name) => {
    const value = raw.trim()
    if (!pattern.test(value)) throw new ConfigError(name, `must be ${must}, got "${quote === 'trimmed' ? value : raw}"`)
    return value
  }
}

/** A connection URL whose scheme matches `scheme`; the message shows an example, never the URL (it may hold a password). */
export function serviceUrl (scheme: RegExp, must: string): Parser<string> {
  return (raw, name) => {
    const value = raw.trim()
    if (!scheme.test(value)) throw new ConfigError(name, `must be ${must}`)
    return value
  }
}

/** An absolute http(s) URL, as written (trimmed); `withoutTrailingSlash` drops trailing slashes. */
export function httpUrl (options: { withoutTrailingSlash?: boolean } = {}): Parser<string> {
  return (raw, name) => {
    const value = raw.trim()
    let ok = false
    try {
      const u = new URL(value)
      ok = u.protocol === 'http:' || u.protocol === 'https:'
    } catch {}
    if (!ok) throw new ConfigError(name, `must be an absolute http(s) URL such as https://example.com, got "${value}"`)
    return options.withoutTrailingSlash === true ? value.replace(/\/+$/, '') : value
  }
}

/** The base of the URLs handed out: absolute http(s), no query or fragment; trailing slashes dropped. */
export function baseUrl (): Parser<string> {
  return (raw, name) => {
    const value = raw.trim()
    try {
      const u = new URL(value)
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme')
      if (u.search || u.hash) throw new Error('query')
    } catch {
      throw new ConfigError(name, `must be an absolute http(s) URL without query, such as https://api.example.com, got "${value}"`)
    }
    return value.replace(/\/+$/, '')
  }
}

/** Comma-separated entries, each trimmed, empty ones dropped; `entry` reads (and checks) each. */
export function list<T> (entry: (item: string, name: string) => T): Parser<T[]> {
  return (raw, name) => raw.split(',').map((item) => item.trim()).filter((item) => item !== '').map((item) => entry(item, name))
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i

/** An address to bind: an IP address or a host name; a typo fails here, not at listen. */
export function bindHost (): Parser<string> {
  return (raw, name) => {
    const value = raw.trim()
    if (net.isIP(value) === 0 && !HOST_NAME.test(value)) throw new ConfigError(name, `must be an IP address or a host name to listen on, such as 0.0.0.0, 127.0.0.1 or ::, got "${value}"`)
    return value
  }
}

/**
 * TRUST_PROXY: "true", "false", or the proxies' addresses and CIDR ranges, comma-separated
 * ("127.0.0.1", "10.0.0.0/8, fd00::/8"), normalized as Fastify (@fastify/proxy-addr) reads them.
 */
export function trustedProxies (): Parser<boolean | string[]> {
  return (raw, name) => {
    const lower = raw.trim().toLowerCase()
    if (FALSE.includes(lower)) return false
    if (TRUE.includes(lower)) return true
    return list((entry) => {
      try {
        if (entry.includes('/')) {
          const [address, bits] = ipaddr.parseCIDR(entry)
          return `${address.toString()}/${bits}`
        }
        if (ipaddr.isValid(entry)) return ipaddr.parse(entry).toString()
      } catch {}
      throw new ConfigError(name, `must be true, false, or the reverse proxies' addresses and CIDR ranges, comma-separated (such as 127.0.0.1 or 10.0.0.0/8,fd00::/8), got "${entry}"`)
    })(raw, name)
  }
}

/** "https://a.example, http://localhost:5173" or "*" → the list; each entry an origin (scheme, host, port). */
export function origins (): Parser<string[]> {
  return (raw, name) => {
    const entries = list((origin) => origin)(raw, name)
    if (entries.includes('*')) return ['*']
    return entries.map((origin) => {
      let u: URL | undefined
      try { u = new URL(origin) } catch {}
      // Browsers send the origin serialized: scheme://host[:port], no path, no trailing slash.
      if (u === undefined || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.origin !== origin.replace(/\/$/, '').toLowerCase()) {
        throw new ConfigError(name, `must be "*" or a comma-separated list of origins such as https://app.example.com or http://localhost:5173 (scheme, host and port only), got "${origin}"`)
      }
      return u.origin
    })
  }
}

/** REMOTE_FETCH_ALLOW: host names, addresses and CIDR ranges, comma-separated, read by the fetcher's own rules. */
export function allowList (): Parser<AllowList> {
  return (raw, name) => {
    try {
      return parseAllowList(raw.split(','))
    } catch (err) {
      throw new ConfigError(name, `must be a comma-separated list of host names, addresses and CIDR ranges: ${(err as Error).message}`)
    }
  }
}
