// Every setting of the server and the CLI in one table: its environment variable, group,
// parser (with its bounds), default, the Config field it fills and the line that
// documents it. The Config type (src/config.ts), the list of names, .env.example and the
// settings tables of docs/configuration.md are all made from it (the last two by
// scripts/settings-docs.ts; a test fails when the committed files differ). A new setting
// is one entry here, plus a bad value in test/system/process/settings.test.ts.
import os from 'node:os'
import {
  allowList, baseUrl, bindHost, boolean, duration, httpUrl, integer, list, ConfigError, oneOf, optional, origins,
  type Parser, serviceUrl, size, text, trimmed, trustedProxies
} from './parsers.js'

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
export const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']
/** RATE_LIMIT_ON_STORE_ERROR: what rate limits do while Redis fails. */
const ON_STORE_ERROR: ReadonlyArray<'open' | 'closed'> = ['open', 'closed']

/** The groups of settings, in the order of .env.example and docs/configuration.md. */
export const SETTING_GROUPS = {
  server: { title: 'The server' },
  info: { title: 'What GET / hands to clients', envTitle: 'What GET / hands to clients (empty unless set)' },
  rateLimits: { title: 'Rate limits' },
  metrics: { title: 'Metrics', envTitle: 'Metrics (off unless METRICS_PORT is set)' },
  scaleOut: { title: 'Scale-out: PostgreSQL and Redis', envTitle: 'Scale-out: PostgreSQL and Redis (off unless set)' },
  imageConversion: { title: 'Image conversion', page: 'image-conversion.md' },
  imageGeneration: { title: 'Image generation', page: 'generation.md' },
  workerThreads: { title: 'Worker threads: drawing and text conversion', page: 'generation.md' },
  gifPull: { title: 'Pulling gifs from public APIs', envTitle: 'Pulling gifs from public APIs: npm run cli -- gifs pull', page: 'gif-packs.md' },
  envFile: { title: 'The settings file', envTitle: 'This file' }
} as const satisfies Record<string, { title: string, envTitle?: string, page?: string }>

export type SettingGroup = keyof typeof SETTING_GROUPS

/**
 * One setting. `field` names the Config field the value fills as read ("image.maxPixels":
 * a field of config.image; "gifPull.baseUrls": the entry of that map named after the
 * setting); a setting without one feeds a field that loadConfig (src/config.ts) computes.
 */
export interface Setting<N extends string = string, T = unknown, F extends string = string> {
  name: N
  group: SettingGroup
  field?: F
  /** Reads a set value; absent for ENV_FILE, which src/env-file.ts reads before the rest. */
  parse?: Parser<T>
  /** The value when the variable is unset or blank (a function: computed at each load). */
  default?: T | (() => T)
  /** The default as .env.example writes it ("" for unset); loading it gives the default. */
  shown: string
  /** What the docs add to the default shown ("a fifth of `MAX_CONNECTIONS`", "off"). */
  defaultNote?: string
  /** The setting's line in docs/configuration.md (Markdown, links relative to docs/). */
  doc: string
  /** A comment above the setting in .env.example, where its line alone would mislead. */
  envComment?: string
}

/**
 * An entry read by loadConfig: its parser and default are required. The value's type comes
 * from the parser alone (NoInfer): a literal default such as 'open' would widen it to string.
 */
type ReadSetting<N extends string, T, F extends string> = Omit<Setting<N, T, F>, 'parse' | 'default'> & { parse: Parser<T>, default: NoInfer<T> | (() => NoInfer<T>) }

function setting<const N extends string, T, const F extends string = never> (entry: ReadSetting<N, T, F>): ReadSetting<N, T, F> {
  return entry
}

// Sizes of the bounds below.
const KB = 1024
const MB = 1024 ** 2
const GB = 1024 ** 3
const TB = 1024 ** 4
const DAY_MS = 86_400_000

/** MAX_CONNECTIONS_PER_ADDRESS defaults to MAX_CONNECTIONS divided by this (loadConfig). */
export const CONNECTIONS_PER_ADDRESS_DIVISOR = 5

/** A server key of LINK_SIGNING_KEYS: long enough that it cannot be guessed, and printable (it is written in .env files). */
const linkSigningKey = (key: string, name: string): string => {
  if (key.length < 32 || /[\s\x00-\x1f\x7f]/.test(key)) throw new ConfigError(name, 'must be a comma-separated list of keys of at least 32 printable characters each (openssl rand -base64 32 makes one)')
  return key
}

const apiKey = (key: string, name: string): string => {
  if (key.length < 16 || /[\s\x00-\x1f]/.test(key)) throw new ConfigError(name, 'must be a comma-separated list of keys of at least 16 printable characters each')
  return key
}

export const SETTINGS = [
  // --- The server
  setting({ name: 'PORT', group: 'server', field: 'port', parse: integer(0, 65535), default: 3000, shown: '3000', doc: 'HTTP port' }),
  setting({ name: 'HOST', group: 'server', field: 'host', parse: bindHost(), default: '0.0.0.0', shown: '0.0.0.0', doc: 'interface to listen on (an IP address or host name)' }),
  setting({
    name: 'DATA_DIR',
    group: 'server',
    parse: trimmed(),
    default: './data',
    shown: './data',
    doc: 'SQLite database, gif files, operators\' banners/icons/fonts, `cache/` (files derived from the bundled ones, safe to delete); created on first start (a file there is refused)'
  }),
  setting({
    name: 'ALLOW_EMPTY_DATABASE',
    group: 'server',
    field: 'allowEmptyDatabase',
    parse: boolean(),
    default: false,
    shown: 'false',
    doc: 'start with a new, empty SQLite database in a `DATA_DIR` that an earlier install wrote to but that holds no database file (refused otherwise, exit code 66: restore the backup instead: [backups.md](backups.md))',
    envComment: 'Start with a new, empty database when DATA_DIR holds an earlier install but no database file (refused otherwise: restore the backup instead, docs/backups.md).'
  }),
  setting({
    name: 'PUBLIC_URL',
    group: 'server',
    parse: optional(baseUrl()),
    default: undefined,
    shown: 'http://localhost:3000',
    defaultNote: '`http://localhost:$PORT`',
    doc: 'absolute base of the URLs the API hands out (gif files): set it to your public address'
  }),
  setting({
    name: 'LOG_LEVEL',
    group: 'server',
    field: 'logLevel',
    parse: oneOf(LOG_LEVELS),
    default: 'info',
    shown: 'info',
    doc: `${LOG_LEVELS.map((level) => `\`${level}\``).join(', ')}; one JSON line per request`
  }),
  setting({ name: 'API_KEYS', group: 'server', field: 'apiKeys', parse: list(apiKey), default: () => [], shown: '', doc: 'comma-separated keys (16+ characters each) added at start, for automation' }),
  setting({
    name: 'LINK_SIGNING_KEYS',
    group: 'server',
    field: 'linkSigningKeys',
    parse: list(linkSigningKey),
    default: () => [],
    shown: '',
    defaultNote: 'a random key kept in `DATA_DIR/link-signing-key`; with `DATABASE_URL`, links are off until it is set',
    doc: 'comma-separated server keys (32+ printable characters each) that every key\'s link secret is derived from: the first derives the secrets `/me` shows, every one is tried when a link is checked; rotate by putting a new one first and dropping the old one later ([links.md](links.md#the-server-key))'
  }),
  setting({
    name: 'ADMIN_TOKEN',
    group: 'server',
    field: 'adminToken',
    parse: optional(text(/^umo_[\x21-\x7e]{28,200}$/, 'an operator token: "umo_" and 28 to 200 printable characters (openssl rand -hex 24 | sed s/^/umo_/ makes one)', 'as written')),
    default: undefined,
    shown: '',
    defaultNote: 'none: the management API answers 404 until a token exists (`admin tokens create`)',
    doc: 'an operator token with every scope, for automation: the management API under `/admin/v1/` ([admin-api.md](admin-api.md)) takes it as `Authorization: Bearer <token>`'
  }),
  setting({
    name: 'ADMIN_ANSWER_KEY',
    group: 'server',
    field: 'adminAnswerKey',
    parse: optional(text(/^[\x21-\x7e]{32,200}$/, 'at least 32 printable characters (openssl rand -base64 32 makes one)', 'as written')),
    default: undefined,
    shown: '',
    defaultNote: 'a random key kept in `DATA_DIR/admin-answer-key`; with `DATABASE_URL`, answers are not kept until it is set',
    doc: 'the server-side secret that encrypts (AES-256-GCM) the answers of `POST /admin/v1/keys` kept 24 h for a retried `Idempotency-Key`; the same on every instance ([admin-api.md](admin-api.md#idempotency))'
  }),
  setting({ name: 'BODY_LIMIT', group: 'server', field: 'bodyLimit', parse: size(KB, 64 * MB), default: MB, shown: '1mb', doc: 'body limit of JSON routes without their own (`512kb`, `2mb`, bytes)' }),
  // 4 MiB: a 1 MB document still fits once JSON-escaped (quotes, newlines, non-ASCII as \u).
  setting({ name: 'TEXT_BODY_LIMIT', group: 'server', field: 'textBodyLimit', parse: size(KB, 64 * MB), default: 4 * MB, shown: '4mb', doc: 'body limit of the text conversions' }),
  setting({
    name: 'CORS_ORIGINS',
    group: 'server',
    field: 'corsOrigins',
    parse: origins(),
    default: () => [],
    shown: '',
    defaultNote: 'off',
    doc: 'origins browsers may call the API from, comma-separated (`https://app.example.com,http://localhost:5173`), or `*`; gif files and previews are readable from any origin regardless'
  }),
  setting({
    name: 'TRUST_PROXY',
    group: 'server',
    field: 'trustProxy',
    parse: trustedProxies(),
    default: false,
    shown: 'false',
    doc: 'trust `X-Forwarded-*` from a reverse proxy (client IPs for per-IP limits): `true` from any address, or only from the proxies\' addresses and CIDR ranges, comma-separated (`127.0.0.1`, `10.0.0.0/8,fd00::/8`), whose connections are then exempt from the per-address connection caps ([operations.md](operations.md#connections))'
  }),
  setting({ name: 'REQUEST_TIMEOUT_MS', group: 'server', field: 'requestTimeoutMs', parse: integer(0, 600_000), default: 30_000, shown: '30000', doc: 'a request still running after this is answered 503 (`0`: never)' }),
  setting({ name: 'SHUTDOWN_TIMEOUT_MS', group: 'server', field: 'shutdownTimeoutMs', parse: integer(0, 600_000), default: 10_000, shown: '10000', doc: 'on SIGTERM/SIGINT, time given to requests in flight' }),
  // Sockets, gif files being streamed (one per download) and the store share the process's
  // file descriptors; 500 connections leave room for all of them under the usual soft
  // limit of 1024 (`ulimit -n`). Raise both together.
  setting({
    name: 'MAX_CONNECTIONS',
    group: 'server',
    field: 'maxConnections',
    parse: integer(1, 1_000_000),
    default: 500,
    shown: '500',
    doc: 'open connections at most; more are refused until one closes, and the last 5 % only go to addresses holding none ([operations.md](operations.md#connections))'
  }),
  setting({
    name: 'MAX_CONNECTIONS_PER_ADDRESS',
    group: 'server',
    parse: optional(integer(1, 1_000_000)),
    default: undefined,
    shown: '100',
    defaultNote: 'a fifth of `MAX_CONNECTIONS`',
    doc: 'open connections one client address may hold (IPv6: one prefix of `RATE_LIMIT_IPV6_PREFIX`); more are closed as soon as they are accepted; proxies listed in `TRUST_PROXY` are exempt ([operations.md](operations.md#connections))'
  }),
  setting({
    name: 'MAX_IDLE_CONNECTIONS_PER_ADDRESS',
    group: 'server',
    parse: optional(integer(0, 1_000_000)),
    default: undefined,
    shown: '50',
    defaultNote: 'half of `MAX_CONNECTIONS_PER_ADDRESS`',
    doc: 'idle connections (no request in progress) one address keeps: an answer sent while it holds this many closes its connection (`Connection: close`); `0`: no keep-alive'
  }),
  setting({ name: 'KEEP_ALIVE_TIMEOUT_MS', group: 'server', field: 'keepAliveTimeoutMs', parse: integer(100, 600_000), default: 5_000, shown: '5000', doc: 'an idle keep-alive connection is closed after this' }),
  setting({
    name: 'HEADERS_TIMEOUT_MS',
    group: 'server',
    field: 'headersTimeoutMs',
    parse: integer(100, 600_000),
    default: 10_000,
    shown: '10000',
    doc: 'a connection that has not sent its request headers within this is answered 408 and closed'
  }),
  setting({ name: 'GIF_STARTER_CATALOG', group: 'server', field: 'gifStarterCatalog', parse: boolean(), default: true, shown: 'true', doc: 'generate the starter gifs on a start with an empty catalog' }),

  // --- What GET / hands to clients
  setting({ name: 'INFO_WEBSITE', group: 'info', field: 'info.website', parse: httpUrl(), default: '', shown: '', defaultNote: '`""`', doc: 'the operator\'s site, an absolute http(s) URL' }),
  setting({ name: 'INFO_DISCORD', group: 'info', field: 'info.discord', parse: httpUrl(), default: '', shown: '', defaultNote: '`""`', doc: 'the invitation to the operator\'s Discord server, an absolute http(s) URL' }),
  setting({ name: 'INFO_TWITTER', group: 'info', field: 'info.twitter', parse: httpUrl(), default: '', shown: '', defaultNote: '`""`', doc: 'the operator\'s page on X (Twitter), an absolute http(s) URL' }),
  setting({ name: 'INFO_REDDIT', group: 'info', field: 'info.reddit', parse: httpUrl(), default: '', shown: '', defaultNote: '`""`', doc: 'the operator\'s Reddit page, an absolute http(s) URL' }),
  setting({ name: 'INFO_DONATE', group: 'info', field: 'info.donate', parse: httpUrl(), default: '', shown: '', defaultNote: '`""`', doc: 'where to donate, an absolute http(s) URL' }),
  setting({
    name: 'INFO_EMAIL',
    group: 'info',
    field: 'info.email',
    parse: text(/^[^\s@]+@[^\s@]+$/, 'an e-mail address such as api@example.com'),
    default: '',
    shown: '',
    defaultNote: '`""`',
    doc: 'the operator\'s contact address'
  }),

  // --- Rate limits
  setting({ name: 'RATE_LIMIT_MAX', group: 'rateLimits', field: 'rateLimitMax', parse: integer(1, 1_000_000_000), default: 100, shown: '100', doc: 'default rate limit of a key: units per window' }),
  setting({ name: 'RATE_LIMIT_WINDOW', group: 'rateLimits', field: 'rateLimitWindowMs', parse: duration(1000, 31 * DAY_MS), default: 60_000, shown: '1 minute', doc: 'the window (`30s`, `1 minute`, `1h`, …)' }),
  setting({ name: 'RATE_LIMIT_IP_MAX', group: 'rateLimits', field: 'rateLimitIpMax', parse: integer(1, 1_000_000_000), default: 600, shown: '600', doc: 'units per window per client IP on public routes (gif files, docs)' }),
  setting({
    name: 'RATE_LIMIT_IPV6_PREFIX',
    group: 'rateLimits',
    field: 'rateLimitIpv6Prefix',
    parse: integer(1, 128),
    default: 64,
    shown: '64',
    doc: 'IPv6 clients share one per-IP bucket, and one address\'s connection caps, per prefix of this length (1..128); `::ffff:a.b.c.d` counts as `a.b.c.d`'
  }),
  setting({
    name: 'RATE_LIMIT_MAX_TRACKED',
    group: 'rateLimits',
    field: 'rateLimitMaxTracked',
    parse: integer(100, 100_000_000),
    default: 100_000,
    shown: '100000',
    doc: 'most identities (keys, addresses) the in-memory counters hold (~150 bytes each); past it the least recently seen is forgotten'
  }),
  // At most this much usage is lost to a kill -9 (docs/billing.md); one small write each time.
  setting({
    name: 'USAGE_FLUSH_MS',
    group: 'rateLimits',
    field: 'usageFlushMs',
    parse: integer(100, 600_000),
    default: 250,
    shown: '250',
    doc: 'how often counted usage is written to the store: at most this much is lost to a `kill -9` ([billing.md](billing.md))'
  }),
  setting({
    name: 'KEY_CACHE_TTL_MS',
    group: 'rateLimits',
    field: 'keyCacheTtlMs',
    parse: integer(0, 60_000),
    default: 1000,
    shown: '1000',
    doc: 'how long a looked-up key is trusted before the store is asked again (`0`: every request)'
  }),
  setting({
    name: 'GIF_CACHE_TTL_MS',
    group: 'rateLimits',
    field: 'gifCacheTtlMs',
    parse: integer(0, 60_000),
    default: 1000,
    shown: '1000',
    doc: 'how long a category\'s gifs held in memory are trusted before the store is asked whether it changed (`0`: every request)'
  }),

  // --- Metrics
  setting({
    name: 'METRICS_PORT',
    group: 'metrics',
    field: 'metricsPort',
    parse: optional(integer(0, 65535)),
    default: undefined,
    shown: '',
    defaultNote: 'off',
    doc: 'Prometheus `/metrics` on this port, never on the public one'
  }),
  setting({ name: 'METRICS_HOST', group: 'metrics', field: 'metricsHost', parse: bindHost(), default: '127.0.0.1', shown: '127.0.0.1', doc: 'interface of the metrics port' }),

  // --- Scale-out
  setting({
    name: 'DATABASE_URL',
    group: 'scaleOut',
    field: 'databaseUrl',
    parse: optional(serviceUrl(/^postgres(ql)?:\/\//, 'a PostgreSQL URL such as postgres://user@127.0.0.1:5432/dbname')),
    default: undefined,
    shown: '',
    doc: 'PostgreSQL URL: keys, usage and the gif catalog live there (scale-out)'
  }),
  setting({
    name: 'REDIS_URL',
    group: 'scaleOut',
    field: 'redisUrl',
    parse: optional(serviceUrl(/^rediss?:\/\//, 'a Redis URL such as redis://127.0.0.1:6379')),
    default: undefined,
    shown: '',
    doc: 'Redis URL: rate-limit counters shared by all instances (scale-out)'
  }),
  setting({
    name: 'REDIS_PREFIX',
    group: 'scaleOut',
    field: 'redisPrefix',
    parse: text(/^[\x21-\x7e]{1,64}$/, '1 to 64 printable characters without spaces, such as "uma:"', 'as written'),
    default: 'uma:',
    shown: 'uma:',
    doc: 'prefix of every Redis key written (1–64 printable characters, no spaces)'
  }),
  setting({
    name: 'RATE_LIMIT_ON_STORE_ERROR',
    group: 'scaleOut',
    field: 'rateLimitOnStoreError',
    parse: oneOf(ON_STORE_ERROR, '"open" (count locally while Redis fails) or "closed" (refuse with 503)'),
    default: 'open',
    shown: 'open',
    doc: 'while Redis does not answer: `open` counts each instance\'s requests locally (each instance allows the whole limit), `closed` refuses rate-limited requests with `503` and `Retry-After` ([operations-faults.md](operations-faults.md))',
    envComment: 'While Redis does not answer: open (each instance counts alone) or closed (503).'
  }),

  // --- Image conversion
  setting({
    name: 'IMAGE_MAX_PIXELS',
    group: 'imageConversion',
    field: 'image.maxPixels',
    parse: integer(1, 1_000_000_000),
    default: 50_000_000,
    shown: '50000000',
    doc: 'most pixels an input may declare, counted over all its animation frames (the decompression-bomb guard)'
  }),
  setting({ name: 'IMAGE_MAX_FRAMES', group: 'imageConversion', field: 'image.maxFrames', parse: integer(1, 100_000), default: 1000, shown: '1000', doc: 'most animation frames an input may declare' }),
  setting({
    name: 'IMAGE_TIMEOUT_MS',
    group: 'imageConversion',
    field: 'image.timeoutMs',
    parse: integer(1000, 600_000),
    default: 15_000,
    shown: '15000',
    doc: 'a conversion running longer than this is stopped'
  }),
  setting({
    name: 'IMAGE_CONCURRENCY',
    group: 'imageConversion',
    field: 'image.concurrency',
    parse: integer(1, 256),
    default: () => os.availableParallelism(),
    shown: '',
    defaultNote: 'one per CPU core',
    doc: 'conversions running at once; how work is admitted and shared between keys: [admission.md](admission.md)',
    envComment: 'Default: one per CPU core.'
  }),
  // Two conversions of up to 4.5 megapixels to WebP (10 to JPEG) run at once; larger
  // ones take turns, so that the server, its queued uploads and the conversions stay
  // within a 512 MB container (docs/image-conversion.md, "Memory").
  setting({
    name: 'IMAGE_MEMORY',
    group: 'imageConversion',
    field: 'image.memoryBytes',
    parse: size(16 * MB, TB),
    default: 192 * MB,
    shown: '192mb',
    doc: 'what the conversions running at once may hold together, estimated from their pixels ([image-conversion.md](image-conversion.md#memory))',
    envComment: 'What conversions running at once may hold together (16mb and up).'
  }),
  // Four uploads of the largest size, or hundreds of photos: with IMAGE_MEMORY and the
  // server itself, within 400 MB (docs/memory.md, "Image conversion"). At least one
  // upload of the largest size (15 MB and the multipart overhead).
  setting({
    name: 'IMAGE_UPLOAD_MEMORY',
    group: 'imageConversion',
    field: 'image.uploadMemoryBytes',
    parse: size(16 * MB, TB),
    default: 64 * MB,
    shown: '64mb',
    doc: 'what the uploads being received or waiting to convert may hold together, images fetched from `url=` included, `/color/image`\'s bodies and downloads too ([admission.md](admission.md#bytes-held-while-waiting-uploads-and-fetched-images))',
    envComment: 'What uploads (and images fetched from url=) being received or waiting to convert may hold together (16mb and up).'
  }),
  setting({
    name: 'IMAGE_UPLOAD_TIMEOUT_MS',
    group: 'imageConversion',
    field: 'image.uploadTimeoutMs',
    parse: integer(100, 600_000),
    default: 20_000,
    shown: '20000',
    doc: 'the whole upload must have arrived within this long of the request\'s start ([image-conversion.md](image-conversion.md#slow-uploads))'
  }),
  setting({
    name: 'IMAGE_UPLOAD_MIN_RATE',
    group: 'imageConversion',
    field: 'image.uploadMinBytesPerSecond',
    parse: size(0, GB),
    default: 16 * KB,
    shown: '16kb',
    doc: 'after the grace period, an upload must average at least this many bytes per second (`0`: no minimum)'
  }),
  setting({
    name: 'IMAGE_UPLOAD_GRACE_MS',
    group: 'imageConversion',
    field: 'image.uploadGraceMs',
    parse: integer(0, 600_000),
    default: 5_000,
    shown: '5000',
    doc: 'time an upload may take before the minimum rate applies (connection set-up, a slow start)'
  }),

  // --- Image generation
  setting({
    name: 'REMOTE_FETCH_ALLOW',
    group: 'imageGeneration',
    field: 'remoteFetchAllow',
    parse: allowList(),
    default: () => ({ hosts: [], ranges: [] }),
    shown: '',
    doc: 'hosts, addresses and CIDR ranges image URLs (pictures\' images, conversions\' `url=`) may reach beyond the public internet, comma-separated ([generation.md](generation.md#fetching-urls-safely))'
  }),
  setting({ name: 'REMOTE_FETCH_MAX_BYTES', group: 'imageGeneration', field: 'remoteFetchMaxBytes', parse: size(KB, 64 * MB), default: 8 * MB, shown: '8mb', doc: 'largest image download for a picture (a conversion\'s `url=` takes up to 15 MB, as an upload)' }),
  setting({
    name: 'REMOTE_FETCH_TIMEOUT_MS',
    group: 'imageGeneration',
    field: 'remoteFetchTimeoutMs',
    parse: integer(100, 60_000),
    default: 5_000,
    shown: '5000',
    doc: 'time allowed for one image fetch, redirects included (pictures\' images and conversions\' `url=`)'
  }),
  // Eight images of the largest size (REMOTE_FETCH_MAX_BYTES), or hundreds of avatars:
  // six pictures of ten 8 MB images each took 1.9 GB without it (issue 35).
  setting({
    name: 'REMOTE_FETCH_MEMORY',
    group: 'imageGeneration',
    field: 'remoteFetchMemoryBytes',
    parse: size(MB, TB),
    default: 256 * MB,
    shown: '256mb',
    doc: 'what the images fetched for pictures may hold together until their pictures are drawn ([generation.md](generation.md#fetched-images-memory))'
  }),
  setting({
    name: 'RESULT_CACHE_MAX_BYTES',
    group: 'imageGeneration',
    field: 'resultCacheMaxBytes',
    parse: size(0, TB),
    default: 512 * MB,
    shown: '512mb',
    doc: 'what the pictures kept in `DATA_DIR/result-cache` may take on disk, the least recently used deleted first; `0` turns the cache off ([result-cache.md](result-cache.md))'
  }),
  setting({
    name: 'RESULT_CACHE_DISK_TIMEOUT_MS',
    group: 'imageGeneration',
    field: 'resultCacheDiskTimeoutMs',
    parse: integer(10, 60_000),
    default: 2_000,
    shown: '2000',
    doc: 'deadline of each read, write or delete of the result cache: past it the picture is drawn as if it were not kept ([result-cache.md](result-cache.md#when-the-disk-fails))'
  }),
  setting({
    name: 'REMOTE_IMAGE_FRESH_SECONDS',
    group: 'imageGeneration',
    field: 'remoteImageFreshSeconds',
    parse: integer(0, 86_400),
    default: 300,
    shown: '300',
    doc: 'how long a fetched image is used again without asking its URL: a picture whose image changed at the same URL is drawn anew within this time (a Discord CDN avatar or emoji URL, whose path names its content, is kept a day) ([result-cache.md](result-cache.md#remote-images))'
  }),
  setting({
    name: 'DISCORD_CDN_URL',
    group: 'imageGeneration',
    field: 'discordCdnUrl',
    parse: httpUrl({ withoutTrailingSlash: true }),
    default: 'https://cdn.discordapp.com',
    shown: 'https://cdn.discordapp.com',
    doc: 'where the custom emoji of Discord markup in texts are fetched ([generation.md](generation.md#discord-markup))'
  }),

  // --- Worker threads
  setting({
    name: 'WORKER_THREADS',
    group: 'workerThreads',
    parse: optional(integer(0, 256)),
    default: undefined,
    shown: '0',
    defaultNote: 'one per CPU core',
    doc: 'worker threads for drawing and text conversion ([generation.md](generation.md#where-the-work-runs))',
    envComment: '0: one per CPU core.'
  }),
  setting({
    name: 'RENDER_CONCURRENCY',
    group: 'workerThreads',
    parse: optional(integer(0, 256)),
    default: undefined,
    shown: '',
    doc: 'the former name of `WORKER_THREADS`, still read when `WORKER_THREADS` is not set',
    envComment: 'The former name of WORKER_THREADS, still read when WORKER_THREADS is not set.'
  }),
  setting({
    name: 'WORK_TIMEOUT_MS',
    group: 'workerThreads',
    field: 'workTimeoutMs',
    parse: integer(0, 600_000),
    default: 10_000,
    shown: '10000',
    doc: 'a job in a worker thread is stopped after this (`0`: only the request\'s deadline stops it)'
  }),

  // --- gifs pull: the contact, and each source's base URL (src/gifs/sources.ts names its setting).
  setting({
    name: 'GIF_PULL_CONTACT',
    group: 'gifPull',
    parse: optional(text(/^[\x21-\x7e][\x20-\x7e]{0,199}$/, 'a URL or an e-mail address in at most 200 printable ASCII characters')),
    default: undefined,
    shown: '',
    defaultNote: '`INFO_WEBSITE`, else `INFO_EMAIL`',
    doc: 'your contact (a URL or an e-mail address), sent in the User-Agent of `gifs pull` ([gif-packs.md](gif-packs.md#pulling-from-public-apis))',
    envComment: 'Your contact (a URL or an e-mail address), sent in the User-Agent; INFO_WEBSITE or INFO_EMAIL when unset. gifs pull refuses to run without one.'
  }),
  setting({
    name: 'GIF_PULL_NEKOS_BEST_URL',
    group: 'gifPull',
    field: 'gifPull.baseUrls',
    parse: httpUrl(),
    default: 'https://nekos.best/api/v2',
    shown: 'https://nekos.best/api/v2',
    doc: 'base URL of the source `nekos.best`'
  }),
  setting({
    name: 'GIF_PULL_WAIFU_PICS_URL',
    group: 'gifPull',
    field: 'gifPull.baseUrls',
    parse: httpUrl(),
    default: 'https://api.waifu.pics',
    shown: 'https://api.waifu.pics',
    doc: 'base URL of the source `waifu.pics`'
  }),
  setting({
    name: 'GIF_PULL_OTAKUGIFS_URL',
    group: 'gifPull',
    field: 'gifPull.baseUrls',
    parse: httpUrl(),
    default: 'https://api.otakugifs.xyz',
    shown: 'https://api.otakugifs.xyz',
    doc: 'base URL of the source `otakugifs`'
  }),
  setting({
    name: 'GIF_PULL_PURRBOT_URL',
    group: 'gifPull',
    field: 'gifPull.baseUrls',
    parse: httpUrl(),
    default: 'https://api.purrbot.site/v2',
    shown: 'https://api.purrbot.site/v2',
    doc: 'base URL of the source `purrbot`'
  }),

  // --- Read before the rest, by src/env-file.ts: which file to load settings from.
  {
    name: 'ENV_FILE',
    group: 'envFile',
    shown: '.env',
    doc: 'the file of settings read at start (optional when it is `.env`; a file named here must exist)'
  } satisfies Setting<'ENV_FILE', never, never>
] as const

/** Every environment variable the server and the CLI read, in the order of the table. */
export const SETTING_NAMES = SETTINGS.map((s) => s.name)

export type SettingName = (typeof SETTINGS)[number]['name']

/** The default of a setting as .env.example shows it (`gifs pull --help` lists each source's base URL). */
export function settingShown (name: string): string | undefined {
  return SETTINGS.find((s) => s.name === name)?.shown
}

/**
 * Settings that no longer apply, with what replaced them: a start that finds one set says
 * so once (a warning, not a refusal: an operator's old environment keeps starting).
 */
export const RETIRED_SETTINGS: Readonly<Record<string, string>> = {
  IMAGE_QUEUE: 'conversions are admitted by the time queued ahead of them, not by a count of places (docs/admission.md)',
  IMAGE_MAX_PER_KEY: 'keys share conversions in fair order instead of a count of places each (docs/admission.md)'
}
