import assert from 'node:assert/strict'
import path from 'node:path'
import { describe, it } from 'node:test'
import { ConfigError, loadConfig, parseSize } from '../../src/config.js'

describe('configuration', () => {
  it('has a default for every setting', () => {
    const c = loadConfig({}, '/srv/app')
    assert.equal(c.port, 3000)
    assert.equal(c.host, '0.0.0.0')
    assert.equal(c.dataDir, path.resolve('/srv/app', 'data'))
    assert.equal(c.publicUrl, 'http://localhost:3000')
    assert.equal(c.logLevel, 'info')
    assert.deepEqual(c.apiKeys, [])
    assert.equal(c.keyCacheTtlMs, 1000)
    assert.equal(c.gifCacheTtlMs, 1000)
  })

  it('reads the INFO_* addresses GET / hands out, empty by default, and refuses a malformed one naming the variable', () => {
    assert.deepEqual(loadConfig({}).info, { website: '', discord: '', twitter: '', reddit: '', email: '', donate: '' })
    const info = loadConfig({ INFO_WEBSITE: 'https://example.com', INFO_DISCORD: 'https://discord.gg/abc', INFO_EMAIL: 'api@example.com', INFO_DONATE: 'https://example.com/donate' }).info
    assert.deepEqual(info, { website: 'https://example.com', discord: 'https://discord.gg/abc', twitter: '', reddit: '', email: 'api@example.com', donate: 'https://example.com/donate' })
    for (const [name, value] of [['INFO_WEBSITE', 'example.com'], ['INFO_TWITTER', 'javascript:alert(1)'], ['INFO_REDDIT', 'ftp://x'], ['INFO_EMAIL', 'not an address']]) {
      assert.throws(() => loadConfig({ [name!]: value }), (err: Error) => err instanceof ConfigError && err.message.includes(name!))
    }
  })

  it('reads GIF_CACHE_TTL_MS, 0 included (the store on every request)', () => {
    assert.equal(loadConfig({ GIF_CACHE_TTL_MS: '250' }).gifCacheTtlMs, 250)
    assert.equal(loadConfig({ GIF_CACHE_TTL_MS: '0' }).gifCacheTtlMs, 0)
  })

  it('reads WORKER_THREADS (default: the cores; RENDER_CONCURRENCY, its former name, still read) and WORK_TIMEOUT_MS (default 10 s, 0: none)', () => {
    assert.ok(loadConfig({}).workerThreads >= 1)
    assert.equal(loadConfig({}).workTimeoutMs, 10_000)
    assert.equal(loadConfig({ WORKER_THREADS: '3' }).workerThreads, 3)
    assert.equal(loadConfig({ RENDER_CONCURRENCY: '5' }).workerThreads, 5)
    assert.equal(loadConfig({ RENDER_CONCURRENCY: '5', WORKER_THREADS: '2' }).workerThreads, 2)
    assert.equal(loadConfig({ WORK_TIMEOUT_MS: '0' }).workTimeoutMs, 0)
    for (const [env, variable] of [[{ WORKER_THREADS: 'many' }, 'WORKER_THREADS'], [{ WORKER_THREADS: '1000' }, 'WORKER_THREADS'], [{ WORK_TIMEOUT_MS: '-5' }, 'WORK_TIMEOUT_MS']] as const) {
      assert.throws(() => loadConfig(env), (err: unknown) => err instanceof ConfigError && err.variable === variable, JSON.stringify(env))
    }
  })

  it('derives PUBLIC_URL from PORT and trims a trailing slash', () => {
    assert.equal(loadConfig({ PORT: '8080' }).publicUrl, 'http://localhost:8080')
    assert.equal(loadConfig({ PUBLIC_URL: 'https://api.example.com/' }).publicUrl, 'https://api.example.com')
  })

  it('reads API_KEYS as a comma-separated list', () => {
    assert.deepEqual(loadConfig({ API_KEYS: ' key-aaaaaaaaaaaaaaaa , key-bbbbbbbbbbbbbbbb,,' }).apiKeys, ['key-aaaaaaaaaaaaaaaa', 'key-bbbbbbbbbbbbbbbb'])
  })

  it('stops with a message naming the variable for every bad value', () => {
    const bad: Array<[Record<string, string>, string]> = [
      [{ PORT: 'abc' }, 'PORT'],
      [{ PORT: '70000' }, 'PORT'],
      [{ PUBLIC_URL: 'ftp://x' }, 'PUBLIC_URL'],
      [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL'],
      [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
      [{ API_KEYS: 'short' }, 'API_KEYS'],
      [{ BODY_LIMIT: 'lots' }, 'BODY_LIMIT'],
      [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
      [{ SHUTDOWN_TIMEOUT_MS: '-1' }, 'SHUTDOWN_TIMEOUT_MS'],
      [{ GIF_CACHE_TTL_MS: '60001' }, 'GIF_CACHE_TTL_MS'],
      [{ GIF_CACHE_TTL_MS: 'soon' }, 'GIF_CACHE_TTL_MS']
    ]
    for (const [env, variable] of bad) {
      assert.throws(() => loadConfig(env), (err: unknown) => err instanceof ConfigError && err.variable === variable && err.message.includes(variable), JSON.stringify(env))
    }
  })

  it('parses sizes with units', () => {
    assert.equal(parseSize('2mb'), 2 * 1024 * 1024)
    assert.equal(parseSize('512kb'), 512 * 1024)
    assert.equal(parseSize('100'), 100)
    assert.equal(parseSize('2 MB'), 2 * 1024 * 1024)
    assert.equal(parseSize('two'), undefined)
  })
})
