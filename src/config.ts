// Configuration: read once from the environment at boot, validated against one table
// with a default per key. A bad value stops the process with a message naming the
// variable (fastify/demo env.ts). Nothing else in the code reads process.env.
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import ipaddr from 'ipaddr.js'
import { GIF_SOURCES } from './gifs/sources.js'
import { parseDuration, parseSize } from './config/units.js'
import { type AllowList, parseAllowList } from './remote-fetch/address.js'

export { parseSize }

/**
 * Every environment variable the server and the CLI read, in the order of the tables of
 * docs/configuration.md. Tests hold loadConfig, .env.example and the compose file to this list: a new
 * setting goes here too.
 */
export const SETTING_NAMES = [
  'PORT', 'HOST', 'DATA_DIR', 'ALLOW_EMPTY_DATABASE', 'PUBLIC_URL', 'LOG_LEVEL', 'API_KEYS', 'BODY_LIMIT', 'TEXT_BODY_LIMIT',
  'CORS_ORIGINS', 'TRUST_PROXY', 'REQUEST_TIMEOUT_MS', 'SHUTDOWN_TIMEOUT_MS',
  'MAX_CONNECTIONS', 'MAX_CONNECTIONS_PER_ADDRESS', 'MAX_IDLE_CONNECTIONS_PER_ADDRESS', 'KEEP_ALIVE_TIMEOUT_MS', 'HEADERS_TIMEOUT_MS',
  'RATE_LIMIT_MAX', 'RATE_LIMIT_WINDOW', 'RATE_LIMIT_IP_MAX', 'RATE_LIMIT_IPV6_PREFIX', 'RATE_LIMIT_MAX_TRACKED',
  'USAGE_FLUSH_MS', 'KEY_CACHE_TTL_MS', 'GIF_CACHE_TTL_MS', 'METRICS_PORT', 'METRICS_HOST',
  'DATABASE_URL', 'REDIS_URL', 'REDIS_PREFIX', 'RATE_LIMIT_ON_STORE_ERROR', 'GIF_STARTER_CATALOG',
  'INFO_WEBSITE', 'INFO_DISCORD', 'INFO_TWITTER', 'INFO_REDDIT', 'INFO_DONATE', 'INFO_EMAIL',
  'IMAGE_MAX_PIXELS', 'IMAGE_MAX_FRAMES', 'IMAGE_TIMEOUT_MS', 'IMAGE_CONCURRENCY', 'IMAGE_MEMORY',
  'IMAGE_UPLOAD_MEMORY', 'IMAGE_UPLOAD_TIMEOUT_MS', 'IMAGE_UPLOAD_MIN_RATE', 'IMAGE_UPLOAD_GRACE_MS',
  'REMOTE_FETCH_ALLOW', 'REMOTE_FETCH_MAX_BYTES', 'REMOTE_FETCH_TIMEOUT_MS', 'REMOTE_FETCH_MEMORY',
  'DISCORD_CDN_URL',
  'WORKER_THREADS', 'RENDER_CONCURRENCY', 'WORK_TIMEOUT_MS',
  'GIF_PULL_CONTACT', 'GIF_PULL_NEKOS_BEST_URL', 'GIF_PULL_WAIFU_PICS_URL', 'GIF_PULL_OTAKUGIFS_URL', 'GIF_PULL_PURRBOT_URL',
  // Read before the rest, by src/env-file.ts: which file to load settings from.
  'ENV_FILE'
] as const

/**
 * Settings that no longer apply, with what replaced them: a start that finds one set says
 * so once (a warning, not a refusal: an operator's old environment keeps starting).
 */
export const RETIRED_SETTINGS: Readonly<Record<string, string>> = {
  IMAGE_QUEUE: 'conversions are admitted by the time queued ahead of them, not by a count of places (docs/admission.md)',
  IMAGE_MAX_PER_KEY: 'keys share conversions in fair order instead of a count of places each (docs/admission.md)'
}

/** The retired settings set in `env`, each with its sentence. */
export function retiredSettingsIn (env: Record<string, string | undefined> = process.env): string[] {
  return Object.entries(RETIRED_SETTINGS).filter(([name]) => env[name] !== undefined).map(([name, why]) => `${name} is set but no longer applies: ${why}`)
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

export interface Config {
  port: number
  host: string
  dataDir: string
  /**
   * ALLOW_EMPTY_DATABASE: start with a new, empty SQLite database in a DATA_DIR that holds
   * an earlier install but no database (refused otherwise: src/store/sqlite/database-file.ts).
   */
  allowEmptyDatabase: boolean
  publicUrl: string
  logLevel: LogLevel
  /** Keys added from the environment (API_KEYS), for automation. */
  apiKeys: string[]
  /** Body limit of JSON routes, in bytes; routes may set their own. */
  bodyLimit: number
  /**
   * TRUST_PROXY: trust X-Forwarded-* from a reverse proxy in front of the service: from
   * any address (true), from none (false), or from these addresses and CIDR ranges, whose
   * connections are also exempt from the per-address connection caps.
   */
  trustProxy: boolean | string[]
  /** Time given to requests in flight on SIGTERM/SIGINT before the process exits. */
  shutdownTimeoutMs: number
  /** A request taking longer than this is answered with 503 (0 disables). */
  requestTimeoutMs: number
  /** Connections open at once; more are closed as soon as they are accepted (MAX_CONNECTIONS, src/http/connection-gate.ts). */
  maxConnections: number
  /** Connections one client address (IPv6: one prefix of RATE_LIMIT_IPV6_PREFIX) may hold open; trusted proxies excepted. */
  maxConnectionsPerAddress: number
  /** Idle connections (no request in progress) one address may keep: past it, answers close their connection. */
  maxIdleConnectionsPerAddress: number
  /** An idle keep-alive connection is closed after this long without a new request. */
  keepAliveTimeoutMs: number
  /** The request line and headers must arrive within this long of the connection (or of the previous answer). */
  headersTimeoutMs: number
  /** Default rate limit of keys without their own: units per window. */
  rateLimitMax: number
  rateLimitWindowMs: number
  /** Rate limit per client IP on public routes (gif files, docs), per the same window. */
  rateLimitIpMax: number
  /** How often counted usage is written to the store. */
  usageFlushMs: number
  /** How long a looked-up key is trusted before the store is asked again (0: every request). */
  keyCacheTtlMs: number
  /** How long a category's cached gifs are trusted before the store's version is checked again (0: every request). */
  gifCacheTtlMs: number
  /** PostgreSQL URL: keys, usage and the gif catalog live there instead of SQLite. */
  databaseUrl: string | undefined
  /** Redis URL: rate-limit counters shared by every instance. */
  redisUrl: string | undefined
  /** Prefix of every Redis key we write, for a Redis shared with other applications. */
  redisPrefix: string
  /** While Redis fails: count each instance's requests locally (open) or refuse them with 503 (closed). */
  rateLimitOnStoreError: 'open' | 'closed'
  /** Port of the Prometheus /metrics endpoint (never the public port); undefined: off. */
  metricsPort: number | undefined
  /** Host the metrics endpoint binds to. */
  metricsHost: string
  /** Generate the starter gif catalog on a start with an empty catalog (GIF_STARTER_CATALOG). */
  gifStarterCatalog: boolean
  /** Body limit of the text conversions (/convert/html-markdown, /convert/markdown-html), in bytes. */
  textBodyLimit: number
  /** REMOTE_FETCH_ALLOW: hosts, addresses and CIDR ranges image URLs may reach beyond the public internet. */
  remoteFetchAllow: AllowList
  /** Largest image download, in bytes. */
  remoteFetchMaxBytes: number
  /** Time allowed for one image fetch, redirects included. */
  remoteFetchTimeoutMs: number
  /** Bytes the images fetched for pictures may hold together until their pictures are drawn (REMOTE_FETCH_MEMORY). */
  remoteFetchMemoryBytes: number
  /** DISCORD_CDN_URL: where the custom emoji of Discord markup in /gen texts are fetched, without a trailing slash. */
  discordCdnUrl: string
  /** `gifs pull` (docs/gif-packs.md): the operator's contact sent in the User-Agent, and each source's base URL by name. */
  gifPull: { contact?: string, baseUrls: Record<string, string> }
  /** Worker threads for drawing and text conversion (src/work/pool.ts): jobs running at once. */
  workerThreads: number
  /** A job in a worker thread is stopped after this (0: only the request's deadline stops it). */
  workTimeoutMs: number
  /** The operator's addresses that GET / hands to clients (INFO_*); "" where unset. */
  info: ServiceInfo
  /** Image conversion (src/conversion/image/): see docs/image-conversion.md. */
  image: ImageConfig
  /** CORS_ORIGINS: origins browsers may call the API from; ['*'] any; empty: CORS off for the API. */
  corsOrigins: string[]
  /** RATE_LIMIT_IPV6_PREFIX: IPv6 clients share one per-IP bucket per prefix of this length. */
  rateLimitIpv6Prefix: number
  /** RATE_LIMIT_MAX_TRACKED: most identities (keys, addresses) the in-memory counters hold. */
  rateLimitMaxTracked: number
}

export interface ImageConfig {
  /** Decompression-bomb guard: most pixels an input may declare, counted over all animation frames. */
  maxPixels: number
  /** Most animation frames an input may declare. */
  maxFrames: number
  /** A conversion running longer than this is stopped (libvips is told to abort). */
  timeoutMs: number
  /** Conversions running at once (CPU-bound: about one per core). */
  concurrency: number
  /** Bytes the conversions running at once may hold together, estimated from their pixels (IMAGE_MEMORY). */
  memoryBytes: number
  /** Bytes the uploads being received or waiting to convert may hold together (IMAGE_UPLOAD_MEMORY). */
  uploadMemoryBytes: number
  /** The whole upload must have arrived within this long of the request's start. */
  uploadTimeoutMs: number
  /** After the grace period, an upload must average at least this many bytes per second. */
  uploadMinBytesPerSecond: number
  /** Time an upload may take before the minimum rate applies (connection set-up, a slow start). */
  uploadGraceMs: number
}

export class ConfigError extends Error {
  constructor (readonly variable: string, message: string) {
    super(`Invalid configuration: ${variable} ${message}`)
    this.name = 'ConfigError'
  }
}

type Env = Record<string, string | undefined>

/** MAX_CONNECTIONS_PER_ADDRESS defaults to MAX_CONNECTIONS divided by this. */
export const CONNECTIONS_PER_ADDRESS_DIVISOR = 5

function int (env: Env, name: string, def: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw.trim() === '') return def
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number between ${min} and ${max}, got "${raw}"`)
  const value = Number(raw)
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`)
  return value
}

function bool (env: Env, name: string, def: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase()
  if (raw === undefined || raw === '') return def
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true
  if (['0', 'false', 'no', 'off'].includes(raw)) return false
  throw new ConfigError(name, `must be true or false, got "${env[name]}"`)
}

function size (env: Env, name: string, def: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw.trim() === '') return def
  const value = parseSize(raw)
  if (value === undefined) throw new ConfigError(name, `must be a size such as 1048576, 512kb or 2mb, got "${raw}"`)
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max} bytes, got ${value}`)
  return value
}

/** What GET / answers beside the docs page's URL (docs/compatibility.md, "GET /"). */
export interface ServiceInfo {
  website: string
  discord: string
  twitter: string
  reddit: string
  email: string
  donate: string
}

function infoUrl (env: Env, name: string): string {
  const raw = env[name]?.trim() ?? ''
  if (raw === '') return ''
  try {
    const u = new URL(raw)
    if (u.protocol === 'http:' || u.protocol === 'https:') return raw
  } catch {}
  throw new ConfigError(name, `must be an absolute http(s) URL such as https://example.com, got "${raw}"`)
}

function serviceInfo (env: Env): ServiceInfo {
  const email = env.INFO_EMAIL?.trim() ?? ''
  if (email !== '' && !/^[^\s@]+@[^\s@]+$/.test(email)) throw new ConfigError('INFO_EMAIL', `must be an e-mail address such as api@example.com, got "${email}"`)
  return {
    website: infoUrl(env, 'INFO_WEBSITE'),
    discord: infoUrl(env, 'INFO_DISCORD'),
    twitter: infoUrl(env, 'INFO_TWITTER'),
    reddit: infoUrl(env, 'INFO_REDDIT'),
    email,
    donate: infoUrl(env, 'INFO_DONATE')
  }
}

/**
 * GIF_PULL_CONTACT (else INFO_WEBSITE, else INFO_EMAIL): how a source's operators reach
 * whoever pulls from it, sent in the User-Agent; printable ASCII (a header value).
 */
function gifPull (env: Env, info: ServiceInfo): Config['gifPull'] {
  const raw = env.GIF_PULL_CONTACT?.trim() ?? ''
  if (raw !== '' && !/^[\x21-\x7e][\x20-\x7e]{0,199}$/.test(raw)) throw new ConfigError('GIF_PULL_CONTACT', `must be a URL or an e-mail address in at most 200 printable ASCII characters, got "${raw}"`)
  const baseUrls: Record<string, string> = {}
  for (const source of GIF_SOURCES) baseUrls[source.name] = infoUrl(env, source.setting) || source.defaultBaseUrl
  return { contact: raw || info.website || info.email || undefined, baseUrls }
}

/**
 * TRUST_PROXY: "true", "false", or the proxies' addresses and CIDR ranges, comma-separated
 * ("127.0.0.1", "10.0.0.0/8, fd00::/8"), normalized as Fastify (@fastify/proxy-addr) reads them.
 */
function trustProxy (env: Env): boolean | string[] {
  const raw = env.TRUST_PROXY?.trim() ?? ''
  const lower = raw.toLowerCase()
  if (raw === '' || ['0', 'false', 'no', 'off'].includes(lower)) return false
  if (['1', 'true', 'yes', 'on'].includes(lower)) return true
  return raw.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '').map((entry) => {
    try {
      if (entry.includes('/')) {
        const [address, bits] = ipaddr.parseCIDR(entry)
        return `${address.toString()}/${bits}`
      }
      if (ipaddr.isValid(entry)) return ipaddr.parse(entry).toString()
    } catch {}
    throw new ConfigError('TRUST_PROXY', `must be true, false, or the reverse proxies' addresses and CIDR ranges, comma-separated (such as 127.0.0.1 or 10.0.0.0/8,fd00::/8), got "${entry}"`)
  })
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i

/** An address to bind: an IP address or a host name; a typo fails here, not at listen. */
function bindHost (env: Env, name: string, def: string): string {
  const raw = env[name]?.trim()
  if (raw === undefined || raw === '') return def
  if (net.isIP(raw) === 0 && !HOST_NAME.test(raw)) throw new ConfigError(name, `must be an IP address or a host name to listen on, such as 0.0.0.0, 127.0.0.1 or ::, got "${raw}"`)
  return raw
}

/** "https://a.example, http://localhost:5173" or "*" → the list; each entry an origin (scheme, host, port). */
function corsOrigins (env: Env): string[] {
  const list = (env.CORS_ORIGINS ?? '').split(',').map((o) => o.trim()).filter((o) => o !== '')
  if (list.includes('*')) return ['*']
  return list.map((origin) => {
    let u: URL | undefined
    try { u = new URL(origin) } catch {}
    // Browsers send the origin serialized: scheme://host[:port], no path, no trailing slash.
    if (u === undefined || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.origin !== origin.replace(/\/$/, '').toLowerCase()) {
      throw new ConfigError('CORS_ORIGINS', `must be "*" or a comma-separated list of origins such as https://app.example.com or http://localhost:5173 (scheme, host and port only), got "${origin}"`)
    }
    return u.origin
  })
}

export function loadConfig (env: Env = process.env, cwd = process.cwd()): Config {
  const port = int(env, 'PORT', 3000, 0, 65535)
  const host = bindHost(env, 'HOST', '0.0.0.0')

  const dataDir = path.resolve(cwd, env.DATA_DIR?.trim() || './data')
  // Created on first start when missing; something else in its place is a mistake.
  if (fs.existsSync(dataDir) && !fs.statSync(dataDir).isDirectory()) throw new ConfigError('DATA_DIR', `must be a directory (created when missing), but ${dataDir} is a file`)

  let publicUrl = env.PUBLIC_URL?.trim() || `http://localhost:${port}`
  try {
    const u = new URL(publicUrl)
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme')
    if (u.search || u.hash) throw new Error('query')
  } catch {
    throw new ConfigError('PUBLIC_URL', `must be an absolute http(s) URL without query, such as https://api.example.com, got "${publicUrl}"`)
  }
  publicUrl = publicUrl.replace(/\/+$/, '')

  const logLevel = (env.LOG_LEVEL?.trim().toLowerCase() || 'info') as LogLevel
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`)

  const apiKeys = (env.API_KEYS ?? '').split(',').map((k) => k.trim()).filter((k) => k !== '')
  for (const key of apiKeys) {
    if (key.length < 16 || /[\s\x00-\x1f]/.test(key)) {
      throw new ConfigError('API_KEYS', 'must be a comma-separated list of keys of at least 16 printable characters each')
    }
  }

  const windowRaw = env.RATE_LIMIT_WINDOW?.trim() || '1 minute'
  const rateLimitWindowMs = parseDuration(windowRaw)
  if (rateLimitWindowMs === undefined || rateLimitWindowMs < 1000 || rateLimitWindowMs > 31 * 86_400_000) {
    throw new ConfigError('RATE_LIMIT_WINDOW', `must be a duration between 1 second and 31 days, such as "1 minute", "30s" or "1h", got "${windowRaw}"`)
  }

  const databaseUrl = env.DATABASE_URL?.trim() || undefined
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', 'must be a PostgreSQL URL such as postgres://user@127.0.0.1:5432/dbname')
  }
  const redisUrl = env.REDIS_URL?.trim() || undefined
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError('REDIS_URL', 'must be a Redis URL such as redis://127.0.0.1:6379')
  }
  const redisPrefix = env.REDIS_PREFIX?.trim() || 'uma:'
  if (!/^[\x21-\x7e]{1,64}$/.test(redisPrefix)) throw new ConfigError('REDIS_PREFIX', `must be 1 to 64 printable characters without spaces, such as "uma:", got "${env.REDIS_PREFIX}"`)
  const onStoreErrorRaw = env.RATE_LIMIT_ON_STORE_ERROR?.trim().toLowerCase() || 'open'
  if (onStoreErrorRaw !== 'open' && onStoreErrorRaw !== 'closed') {
    throw new ConfigError('RATE_LIMIT_ON_STORE_ERROR', `must be "open" (count locally while Redis fails) or "closed" (refuse with 503), got "${env.RATE_LIMIT_ON_STORE_ERROR}"`)
  }
  const metricsPortRaw = env.METRICS_PORT?.trim()
  const metricsPort = metricsPortRaw ? int(env, 'METRICS_PORT', 0, 0, 65535) : undefined
  if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === port) {
    throw new ConfigError('METRICS_PORT', `must differ from PORT (${port}): metrics are never served on the public port`)
  }
  let remoteFetchAllow: AllowList
  try {
    remoteFetchAllow = parseAllowList((env.REMOTE_FETCH_ALLOW ?? '').split(','))
  } catch (err) {
    throw new ConfigError('REMOTE_FETCH_ALLOW', `must be a comma-separated list of host names, addresses and CIDR ranges: ${(err as Error).message}`)
  }
  // WORKER_THREADS; RENDER_CONCURRENCY is its former name (it bounded drawing alone).
  const workerThreads = int(env, 'WORKER_THREADS', int(env, 'RENDER_CONCURRENCY', 0, 0, 256), 0, 256)
  const imageConcurrency = int(env, 'IMAGE_CONCURRENCY', os.availableParallelism(), 1, 256)
  const keepAliveTimeoutMs = int(env, 'KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000)
  const headersTimeoutMs = int(env, 'HEADERS_TIMEOUT_MS', 10_000, 100, 600_000)
  // Sockets, gif files being streamed (one per download) and the store share the process's
  // file descriptors; 500 connections leave room for all of them under the usual soft
  // limit of 1024 (`ulimit -n`). Raise both together.
  const maxConnections = int(env, 'MAX_CONNECTIONS', 500, 1, 1_000_000)
  // A fifth of the connections per address: one address (an attacker's idle sockets, or
  // one client's burst: the bursts tests send 60 at once) leaves four fifths to the others
  // (docs/operations.md, "Connections").
  const maxConnectionsPerAddress = int(env, 'MAX_CONNECTIONS_PER_ADDRESS', Math.max(1, Math.floor(maxConnections / CONNECTIONS_PER_ADDRESS_DIVISOR)), 1, 1_000_000)

  return {
    port,
    host,
    dataDir,
    allowEmptyDatabase: bool(env, 'ALLOW_EMPTY_DATABASE', false),
    publicUrl,
    logLevel,
    apiKeys,
    bodyLimit: size(env, 'BODY_LIMIT', 1024 * 1024, 1024, 64 * 1024 * 1024),
    trustProxy: trustProxy(env),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 30_000, 0, 600_000),
    maxConnections,
    maxConnectionsPerAddress,
    // Half of them idle: a client keeps a pool of keep-alive connections, not one per request it ever sent at once.
    maxIdleConnectionsPerAddress: int(env, 'MAX_IDLE_CONNECTIONS_PER_ADDRESS', Math.ceil(maxConnectionsPerAddress / 2), 0, 1_000_000),
    keepAliveTimeoutMs,
    headersTimeoutMs,
    rateLimitMax: int(env, 'RATE_LIMIT_MAX', 100, 1, 1_000_000_000),
    rateLimitWindowMs,
    rateLimitIpMax: int(env, 'RATE_LIMIT_IP_MAX', 600, 1, 1_000_000_000),
    // At most this much usage is lost to a kill -9 (docs/billing.md); one small write each time.
    usageFlushMs: int(env, 'USAGE_FLUSH_MS', 250, 100, 600_000),
    keyCacheTtlMs: int(env, 'KEY_CACHE_TTL_MS', 1000, 0, 60_000),
    gifCacheTtlMs: int(env, 'GIF_CACHE_TTL_MS', 1000, 0, 60_000),
    databaseUrl,
    redisUrl,
    redisPrefix,
    rateLimitOnStoreError: onStoreErrorRaw,
    metricsPort,
    metricsHost: bindHost(env, 'METRICS_HOST', '127.0.0.1'),
    gifStarterCatalog: bool(env, 'GIF_STARTER_CATALOG', true),
    // 4 MiB: a 1 MB document still fits once JSON-escaped (quotes, newlines, non-ASCII as \u).
    textBodyLimit: size(env, 'TEXT_BODY_LIMIT', 4 * 1024 * 1024, 1024, 64 * 1024 * 1024),
    remoteFetchAllow,
    remoteFetchMaxBytes: size(env, 'REMOTE_FETCH_MAX_BYTES', 8 * 1024 * 1024, 1024, 64 * 1024 * 1024),
    remoteFetchTimeoutMs: int(env, 'REMOTE_FETCH_TIMEOUT_MS', 5_000, 100, 60_000),
    // Eight images of the largest size (REMOTE_FETCH_MAX_BYTES), or hundreds of avatars:
    // six pictures of ten 8 MB images each took 1.9 GB without it (issue 35).
    remoteFetchMemoryBytes: size(env, 'REMOTE_FETCH_MEMORY', 256 * 1024 * 1024, 1024 * 1024, 1024 ** 4),
    discordCdnUrl: (infoUrl(env, 'DISCORD_CDN_URL') || 'https://cdn.discordapp.com').replace(/\/+$/, ''),
    workerThreads: workerThreads === 0 ? Math.max(1, os.availableParallelism()) : workerThreads,
    workTimeoutMs: int(env, 'WORK_TIMEOUT_MS', 10_000, 0, 600_000),
    info: serviceInfo(env),
    gifPull: gifPull(env, serviceInfo(env)),
    image: {
      maxPixels: int(env, 'IMAGE_MAX_PIXELS', 50_000_000, 1, 1_000_000_000),
      maxFrames: int(env, 'IMAGE_MAX_FRAMES', 1000, 1, 100_000),
      timeoutMs: int(env, 'IMAGE_TIMEOUT_MS', 15_000, 1000, 600_000),
      concurrency: imageConcurrency,
      // Two conversions of up to 4.5 megapixels to WebP (10 to JPEG) run at once; larger
      // ones take turns, so that the server, its queued uploads and the conversions stay
      // within a 512 MB container (docs/image-conversion.md, "Memory").
      memoryBytes: size(env, 'IMAGE_MEMORY', 192 * 1024 * 1024, 16 * 1024 * 1024, 1024 ** 4),
      // Four uploads of the largest size, or hundreds of photos: with IMAGE_MEMORY and the
      // server itself, within 400 MB (docs/memory.md, "Image conversion"). At least one
      // upload of the largest size (15 MB and the multipart overhead).
      uploadMemoryBytes: size(env, 'IMAGE_UPLOAD_MEMORY', 64 * 1024 * 1024, 16 * 1024 * 1024, 1024 ** 4),
      uploadTimeoutMs: int(env, 'IMAGE_UPLOAD_TIMEOUT_MS', 20_000, 100, 600_000),
      uploadMinBytesPerSecond: size(env, 'IMAGE_UPLOAD_MIN_RATE', 16 * 1024, 0, 1024 ** 3),
      uploadGraceMs: int(env, 'IMAGE_UPLOAD_GRACE_MS', 5_000, 0, 600_000)
    },
    corsOrigins: corsOrigins(env),
    rateLimitIpv6Prefix: int(env, 'RATE_LIMIT_IPV6_PREFIX', 64, 1, 128),
    rateLimitMaxTracked: int(env, 'RATE_LIMIT_MAX_TRACKED', 100_000, 100, 100_000_000)
  }
}
