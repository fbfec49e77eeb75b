// The table of settings (src/config/settings.ts) is what the server reads, and what
// .env.example and the settings tables of docs/configuration.md are made from
// (scripts/settings-docs.ts); a .env file is read at start by the built server, the
// environment winning over it.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { loadConfig, SETTING_NAMES, SETTINGS } from '../../../src/config.js'
import { GIF_SOURCES } from '../../../src/gifs/sources.js'
import { configurationPage, envExample } from '../../../scripts/settings-docs.js'
import { tempDir } from '../../support/helpers.js'
import { request, startServerProcess } from '../../support/processes.js'

const dirs: string[] = []
after(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }) })

/** The variables loadConfig asks for. */
function variablesRead (): Set<string> {
  const read = new Set<string>()
  const env = new Proxy({} as Record<string, string | undefined>, {
    get (_target, name) { if (typeof name === 'string') read.add(name); return undefined },
    has (_target, name) { if (typeof name === 'string') read.add(name); return false }
  })
  loadConfig(env)
  return read
}

/** The first line where `committed` and `made` differ, both shown; undefined when they are the same. */
function firstDifference (committed: string, made: string): string | undefined {
  if (committed === made) return undefined
  const a = committed.split('\n')
  const b = made.split('\n')
  const line = a.findIndex((text, i) => text !== b[i])
  const at = line < 0 ? a.length : line
  return `line ${at + 1}: committed ${JSON.stringify(a[at])}, made ${JSON.stringify(b[at])}`
}

describe('the settings', () => {
  it('SETTING_NAMES is exactly what loadConfig reads (plus ENV_FILE, read before it)', () => {
    const read = variablesRead()
    assert.deepEqual([...read].sort(), SETTING_NAMES.filter((n) => n !== 'ENV_FILE').sort(),
      'loadConfig reads a variable that is not in the table of src/config/settings.ts, or the reverse')
  })

  it('.env.example and docs/configuration.md are what scripts/settings-docs.ts makes from the table', () => {
    const page = fs.readFileSync('docs/configuration.md', 'utf8')
    assert.equal(firstDifference(fs.readFileSync('.env.example', 'utf8'), envExample()), undefined, '.env.example differs from the table: run node --import tsx scripts/settings-docs.ts')
    assert.equal(firstDifference(page, configurationPage(page)), undefined, 'the settings of docs/configuration.md differ from the table: run node --import tsx scripts/settings-docs.ts')
    for (const name of SETTING_NAMES) assert.ok(page.includes(`| \`${name}\` |`), `docs/configuration.md has a row for ${name}`)
  })

  it('the defaults .env.example shows are the ones the server uses, and load as they are', () => {
    const text = fs.readFileSync('.env.example', 'utf8')
    const listed = [...text.matchAll(/^#? ?([A-Z][A-Z0-9_]+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!] as const)
    assert.deepEqual(listed.map(([n]) => n).sort(), [...SETTING_NAMES].sort())
    // Every default shown is one the server accepts (an empty value means "unset"), and
    // each alone gives the default: the table's `shown` cannot drift from its `default`.
    const env = Object.fromEntries(listed.filter(([n]) => n !== 'ENV_FILE'))
    const defaults = loadConfig({})
    assert.deepEqual(loadConfig(env), defaults, 'the values in .env.example are the defaults')
    for (const [name, value] of listed) {
      if (name !== 'ENV_FILE') assert.deepEqual(loadConfig({ [name]: value }), defaults, `.env.example shows ${name} = "${value}" as its default`)
    }
  })

  it('each gif source\'s base URL is a setting of the table, with a default', () => {
    const baseUrls = loadConfig({}).gifPull.baseUrls
    for (const source of GIF_SOURCES) {
      assert.ok(SETTINGS.some((s) => s.name === source.setting && 'field' in s && s.field === 'gifPull.baseUrls'), `${source.name}: ${source.setting} in src/config/settings.ts`)
      assert.match(baseUrls[source.setting] ?? '', /^https:\/\//, `${source.setting} has a default`)
    }
    assert.equal(Object.keys(baseUrls).length, GIF_SOURCES.length, 'a base URL setting for each source, and no other')
  })
})

describe('.env at start (built server)', () => {
  it('reads a .env in the working directory; variables of the environment win', async () => {
    const cwd = tempDir('uma-envfile-')
    dirs.push(cwd)
    fs.writeFileSync(path.join(cwd, '.env'), [
      '# settings for this test',
      'API_KEYS=from-dotenv-key-0123456789',
      'RATE_LIMIT_MAX=7',
      'CORS_ORIGINS=https://from-file.example',
      ''
    ].join('\n'))
    const s = await startServerProcess({ DATA_DIR: path.join(cwd, 'data'), CORS_ORIGINS: 'https://from-env.example' }, { cwd })
    try {
      assert.match(s.output(), /Settings read from .*\.env/)
      const res = await request(`${s.url}/color/random`, { headers: { authorization: 'from-dotenv-key-0123456789', origin: 'https://from-env.example' } })
      assert.equal(res.status, 200, 'the key from .env works')
      assert.equal(res.headers['x-ratelimit-limit'], '7', 'RATE_LIMIT_MAX from .env')
      assert.equal(res.headers['access-control-allow-origin'], 'https://from-env.example', 'the environment wins over .env')
    } finally {
      assert.equal(await s.stop(), 0)
    }
  })

  it('reads the file ENV_FILE names, and stops naming ENV_FILE when it is missing', async () => {
    const cwd = tempDir('uma-envfile-')
    dirs.push(cwd)
    fs.writeFileSync(path.join(cwd, 'prod.env'), 'API_KEYS=from-named-file-0123456789\n')
    const s = await startServerProcess({ DATA_DIR: path.join(cwd, 'data'), ENV_FILE: path.join(cwd, 'prod.env') })
    try {
      const res = await request(`${s.url}/color/random`, { headers: { authorization: 'from-named-file-0123456789' } })
      assert.equal(res.status, 200)
    } finally {
      assert.equal(await s.stop(), 0)
    }
    await assert.rejects(startServerProcess({ DATA_DIR: path.join(cwd, 'data'), ENV_FILE: path.join(cwd, 'missing.env') }), /ENV_FILE/)
  })
})
