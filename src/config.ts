// Configuration: read once from the environment at boot. Every variable is an entry of
// the table in src/config/settings.ts (its parser, bounds, default and doc line), which
// also makes the Config type below; the few fields computed from several settings are
// computed after the table, in loadConfig. A bad value stops the process with a message
// naming the variable (fastify/demo env.ts). Nothing else reads a setting from
// process.env: src/env-file.ts reads ENV_FILE, the file the rest may come from, before
// this, and src/work/pool.ts reads Node's own NODE_OPTIONS.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ConfigError, type Parser } from './config/parsers.js'
import { CONNECTIONS_PER_ADDRESS_DIVISOR, RETIRED_SETTINGS, type Setting, SETTINGS } from './config/settings.js'

export { ConfigError } from './config/parsers.js'
export { CONNECTIONS_PER_ADDRESS_DIVISOR, type LogLevel, RETIRED_SETTINGS, SETTING_NAMES, SETTINGS, settingShown, WEBHOOK_EVENT_TYPES, type WebhookEventType } from './config/settings.js'
export { parseSize } from './config/units.js'

type Env = Record<string, string | undefined>

type Entry = (typeof SETTINGS)[number]
type ValueOf<E> = E extends { parse: Parser<infer T> } ? T : never

/** Each setting's value as read (its default when unset), by variable name. */
type SettingValues = { [E in Entry as E extends { parse: unknown } ? E['name'] : never]: ValueOf<E> }

/** The fields the table fills directly: those whose `field` is `prefix` + a name without dots. */
type FieldsAt<Prefix extends string> = {
  [E in Entry as E extends { field?: infer F } ? (F extends `${Prefix}${infer Key}` ? (Key extends `${string}.${string}` ? never : Key) : never) : never]: ValueOf<E>
}

/** The fields computed from several settings, or from a setting and the machine (loadConfig). */
interface ComputedConfig {
  /** DATA_DIR resolved against the working directory; created on first start. */
  dataDir: string
  /** PUBLIC_URL without trailing slashes; http://localhost:PORT when unset. */
  publicUrl: string
  /** Connections one client address (IPv6: one prefix of RATE_LIMIT_IPV6_PREFIX) may hold open; trusted proxies excepted. */
  maxConnectionsPerAddress: number
  /** Idle connections (no request in progress) one address may keep: past it, answers close their connection. */
  maxIdleConnectionsPerAddress: number
  /** Worker threads for drawing and text conversion (src/work/pool.ts): jobs running at once. */
  workerThreads: number
  /** `gifs pull` (docs/gif-packs.md): the operator's contact sent in the User-Agent, and each source's base URL by its setting's name. */
  gifPull: { contact?: string, baseUrls: Record<string, string> }
}

/** Image conversion (src/conversion/image/): see docs/image-conversion.md. */
export type ImageConfig = FieldsAt<'image.'>

/** What GET / answers beside the docs page's URL (docs/compatibility.md, "GET /"). */
export type ServiceInfo = FieldsAt<'info.'>

/** The settings as the server and the CLI use them; each field's doc line is its entry in src/config/settings.ts. */
export type Config = FieldsAt<''> & { image: ImageConfig, info: ServiceInfo } & ComputedConfig

function defaultOf (setting: Setting): unknown {
  return typeof setting.default === 'function' ? (setting.default as () => unknown)() : setting.default
}

/** Reads and checks every setting of the table, in its order: an unset or blank variable takes the default. */
function readSettings (env: Env = process.env): SettingValues {
  const values: Record<string, unknown> = {}
  for (const setting of SETTINGS as readonly Setting[]) {
    if (setting.parse === undefined) continue
    const raw = env[setting.name]
    values[setting.name] = raw === undefined || raw.trim() === '' ? defaultOf(setting) : setting.parse(raw, setting.name)
  }
  return values as SettingValues
}

/** The Config fields the table fills as read, and each gif source's base URL by its setting's name. */
function tableFields (values: SettingValues): Omit<Config, keyof ComputedConfig> & { baseUrls: Record<string, string> } {
  const fields: Record<string, unknown> = {}
  const sections: Record<string, Record<string, unknown>> = { image: {}, info: {}, baseUrls: {} }
  for (const setting of SETTINGS as readonly Setting[]) {
    if (setting.field === undefined) continue
    const value = (values as Record<string, unknown>)[setting.name]
    const dot = setting.field.indexOf('.')
    if (setting.field === 'gifPull.baseUrls') sections.baseUrls![setting.name] = value
    else if (dot < 0) fields[setting.field] = value
    else sections[setting.field.slice(0, dot)]![setting.field.slice(dot + 1)] = value
  }
  return { ...fields, ...sections } as unknown as Omit<Config, keyof ComputedConfig> & { baseUrls: Record<string, string> }
}

export function loadConfig (env: Env = process.env, cwd = process.cwd()): Config {
  const settings = readSettings(env)
  const { baseUrls, ...config } = tableFields(settings)

  const dataDir = path.resolve(cwd, settings.DATA_DIR)
  // Created on first start when missing; something else in its place is a mistake.
  if (fs.existsSync(dataDir) && !fs.statSync(dataDir).isDirectory()) throw new ConfigError('DATA_DIR', `must be a directory (created when missing), but ${dataDir} is a file`)
  if (config.webhookUrl !== undefined && config.webhookSecret === undefined) {
    throw new ConfigError('WEBHOOK_SECRET', 'must be set when WEBHOOK_URL is: the receiver checks each delivery\'s signature with it ("echo whsec_$(openssl rand -base64 32)" makes one; docs/webhooks.md)')
  }
  if (config.metricsPort !== undefined && config.metricsPort !== 0 && config.metricsPort === config.port) {
    throw new ConfigError('METRICS_PORT', `must differ from PORT (${config.port}): metrics are never served on the public port`)
  }
  // A fifth of the connections per address: one address (an attacker's idle sockets, or
  // one client's burst: the bursts tests send 60 at once) leaves four fifths to the others
  // (docs/operations.md, "Connections").
  const maxConnectionsPerAddress = settings.MAX_CONNECTIONS_PER_ADDRESS ?? Math.max(1, Math.floor(config.maxConnections / CONNECTIONS_PER_ADDRESS_DIVISOR))
  // WORKER_THREADS; RENDER_CONCURRENCY is its former name (it bounded drawing alone). 0: one per core.
  const workerThreads = settings.WORKER_THREADS ?? settings.RENDER_CONCURRENCY ?? 0

  return {
    ...config,
    dataDir,
    publicUrl: settings.PUBLIC_URL ?? `http://localhost:${config.port}`,
    maxConnectionsPerAddress,
    // Half of them idle: a client keeps a pool of keep-alive connections, not one per request it ever sent at once.
    maxIdleConnectionsPerAddress: settings.MAX_IDLE_CONNECTIONS_PER_ADDRESS ?? Math.ceil(maxConnectionsPerAddress / 2),
    workerThreads: workerThreads === 0 ? Math.max(1, os.availableParallelism()) : workerThreads,
    // GIF_PULL_CONTACT, else INFO_WEBSITE, else INFO_EMAIL: how a source's operators reach
    // whoever pulls from it; `gifs pull` refuses to run without one.
    gifPull: { contact: settings.GIF_PULL_CONTACT ?? (config.info.website || config.info.email || undefined), baseUrls }
  }
}

/** The retired settings set in `env`, each with its sentence. */
export function retiredSettingsIn (env: Env = process.env): string[] {
  return Object.entries(RETIRED_SETTINGS).filter(([name]) => env[name] !== undefined).map(([name, why]) => `${name} is set but no longer applies: ${why}`)
}
