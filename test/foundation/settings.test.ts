// The list of settings (SETTING_NAMES) is what the server reads, what .env.example
// shows with its defaults and what docs/configuration.md documents; a .env file is read at start
// by the built server, the environment winning over it.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { loadConfig, SETTING_NAMES } from '../../src/config.js'
import { tempDir } from '../helpers.js'
import { request, startServerProcess } from '../processes.js'

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

describe('the settings', () => {
  it('SETTING_NAMES is exactly what loadConfig reads (plus ENV_FILE, read before it)', () => {
    const read = variablesRead()
    assert.deepEqual([...read].sort(), SETTING_NAMES.filter((n) => n !== 'ENV_FILE').sort(),
      'a setting read by src/config.ts is missing from SETTING_NAMES, or the reverse: keep the list, .env.example and docs/configuration.md in step')
  })

  it('.env.example lists every setting with its default, and nothing else', () => {
    const text = fs.readFileSync('.env.example', 'utf8')
    const listed = [...text.matchAll(/^#? ?([A-Z][A-Z0-9_]+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!] as const)
    assert.deepEqual(listed.map(([n]) => n).sort(), [...SETTING_NAMES].sort())
    // Every default shown is one the server accepts (an empty value means "unset").
    const env = Object.fromEntries(listed.filter(([n]) => n !== 'ENV_FILE'))
    const fromExample = loadConfig(env)
    const defaults = loadConfig({})
    assert.deepEqual(fromExample, defaults, 'the values in .env.example are the defaults')
  })

  it('docs/configuration.md documents every setting', () => {
    const page = fs.readFileSync('docs/configuration.md', 'utf8')
    const missing = SETTING_NAMES.filter((name) => !page.includes('`' + name + '`'))
    assert.deepEqual(missing, [], 'settings missing from the tables of docs/configuration.md')
  })

  it('the defaults the tables of docs/configuration.md show are the ones the server uses', () => {
    const page = fs.readFileSync('docs/configuration.md', 'utf8')
    // Rows such as | `PORT` | `3000` | …; "–" shows a setting unset by default.
    const rows = [...page.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \| (`([^`]*)`|–)[^|]*\|/gm)]
      .map((m) => [m[1]!, (m[3] ?? '').replace('$PORT', '3000')] as const)
      .filter(([name]) => name !== 'ENV_FILE')
    assert.ok(rows.length >= 20, `only ${rows.length} rows read from the tables of docs/configuration.md`)
    for (const [name, value] of rows) {
      assert.deepEqual(loadConfig({ [name]: value }), loadConfig({}), `docs/configuration.md shows ${name} = "${value}" as its default`)
    }
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
