// Configuration: read once from the environment at boot, validated against one table
// with a default per key. A bad value stops the process with a message naming the
// variable (fastify/demo env.ts). Nothing else in the code reads process.env.
import os from 'node:os'
import path from 'node:path'
import { parseDuration } from './limits/durations.js'
import { type AllowList, parseAllowList } from './remote-fetch/address.js'

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

export interface Config {
  port: number
  host: string
  dataDir: string
  publicUrl: string
  logLevel: LogLevel
  /** Keys added from the environment (API_KEYS), for automation. */
  apiKeys: string[]
  /** Body limit of JSON routes, in bytes; routes may set their own. */
  bodyLimit: number
  /** Trust X-Forwarded-* from a reverse proxy in front of the service. */
  trustProxy: boolean
  /** Time given to requests in flight on SIGTERM/SIGINT before the process exits. */
  shutdownTimeoutMs: number
  /** A request taking longer than this is answered with 503 (0 disables). */
  requestTimeoutMs: number
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
  /** Images drawn at once (rendering is CPU work); 0 = one per CPU core. */
  renderConcurrency: number
  /** Image conversion (src/conversion/image/): see docs/image-conversion.md. */
  image: ImageConfig
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
  /** Requests admitted beyond those converting (receiving their upload or waiting); more get 503. */
  queue: number
}

export class ConfigError extends Error {
  constructor (readonly variable: string, message: string) {
    super(`Invalid configuration: ${variable} ${message}`)
    this.name = 'ConfigError'
  }
}

type Env = Record<string, string | undefined>

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

const SIZE_UNITS: Record<string, number> = { b: 1, kb: 1024, k: 1024, mb: 1024 ** 2, m: 1024 ** 2, gb: 1024 ** 3, g: 1024 ** 3 }

/** "2mb", "512kb", "1048576" → bytes. */
export function parseSize (raw: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?b?)?\s*$/i.exec(raw)
  if (!m) return undefined
  const unit = SIZE_UNITS[(m[2] ?? 'b').toLowerCase() || 'b']
  return unit === undefined ? undefined : Math.floor(Number(m[1]) * unit)
}

function size (env: Env, name: string, def: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw.trim() === '') return def
  const value = parseSize(raw)
  if (value === undefined) throw new ConfigError(name, `must be a size such as 1048576, 512kb or 2mb, got "${raw}"`)
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max} bytes, got ${value}`)
  return value
}

export function loadConfig (env: Env = process.env, cwd = process.cwd()): Config {
  const port = int(env, 'PORT', 3000, 0, 65535)
  const host = env.HOST?.trim() || '0.0.0.0'

  const dataDir = path.resolve(cwd, env.DATA_DIR?.trim() || './data')

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
  const renderConcurrency = int(env, 'RENDER_CONCURRENCY', 0, 0, 256)

  return {
    port,
    host,
    dataDir,
    publicUrl,
    logLevel,
    apiKeys,
    bodyLimit: size(env, 'BODY_LIMIT', 1024 * 1024, 1024, 64 * 1024 * 1024),
    trustProxy: bool(env, 'TRUST_PROXY', false),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 30_000, 0, 600_000),
    rateLimitMax: int(env, 'RATE_LIMIT_MAX', 100, 1, 1_000_000_000),
    rateLimitWindowMs,
    rateLimitIpMax: int(env, 'RATE_LIMIT_IP_MAX', 600, 1, 1_000_000_000),
    usageFlushMs: int(env, 'USAGE_FLUSH_MS', 2000, 100, 600_000),
    keyCacheTtlMs: int(env, 'KEY_CACHE_TTL_MS', 1000, 0, 60_000),
    gifCacheTtlMs: int(env, 'GIF_CACHE_TTL_MS', 1000, 0, 60_000),
    databaseUrl,
    redisUrl,
    redisPrefix: env.REDIS_PREFIX?.trim() || 'uma:',
    metricsPort,
    metricsHost: env.METRICS_HOST?.trim() || '127.0.0.1',
    gifStarterCatalog: bool(env, 'GIF_STARTER_CATALOG', true),
    // 4 MiB: a 1 MB document still fits once JSON-escaped (quotes, newlines, non-ASCII as \u).
    textBodyLimit: size(env, 'TEXT_BODY_LIMIT', 4 * 1024 * 1024, 1024, 64 * 1024 * 1024),
    remoteFetchAllow,
    remoteFetchMaxBytes: size(env, 'REMOTE_FETCH_MAX_BYTES', 8 * 1024 * 1024, 1024, 64 * 1024 * 1024),
    remoteFetchTimeoutMs: int(env, 'REMOTE_FETCH_TIMEOUT_MS', 5_000, 100, 60_000),
    renderConcurrency: renderConcurrency === 0 ? Math.max(1, os.availableParallelism()) : renderConcurrency,
    image: {
      maxPixels: int(env, 'IMAGE_MAX_PIXELS', 50_000_000, 1, 1_000_000_000),
      maxFrames: int(env, 'IMAGE_MAX_FRAMES', 1000, 1, 100_000),
      timeoutMs: int(env, 'IMAGE_TIMEOUT_MS', 15_000, 1000, 600_000),
      concurrency: int(env, 'IMAGE_CONCURRENCY', os.availableParallelism(), 1, 256),
      queue: int(env, 'IMAGE_QUEUE', 8, 0, 10_000)
    }
  }
}

/** The configuration tests and benchmarks start from: everything default, data in dataDir. */
export function testConfig (dataDir: string, overrides: Partial<Config> = {}): Config {
  // Limits out of the way: tests of limits set their own.
  return { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), rateLimitMax: 1_000_000_000, rateLimitIpMax: 1_000_000_000, ...overrides }
}
