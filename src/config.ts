// Configuration: read once from the environment at boot, validated against one table
// with a default per key. A bad value stops the process with a message naming the
// variable (fastify/demo env.ts). Nothing else in the code reads process.env.
import os from 'node:os'
import path from 'node:path'

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
  return { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), ...overrides }
}
