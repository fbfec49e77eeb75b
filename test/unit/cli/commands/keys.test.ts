// The operators' key commands, against a temporary data directory.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { runCli } from '../../../../src/cli/main.js'
import { testConfig } from '../../../support/config.js'
import { prepareKeys } from '../../../../src/access/bootstrap.js'
import { openSqliteStore } from '../../../../src/store/sqlite/index.js'
import { createAppOn, tempDir } from '../../../support/helpers.js'

let dataDir: string
before(() => { dataDir = tempDir('uma-cli-') })
after(() => fs.rmSync(dataDir, { recursive: true, force: true }))

async function cli (...argv: string[]): Promise<{ code: number, out: string[], err: string[] }> {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(argv, { DATA_DIR: dataDir }, { out: (s) => out.push(...s.split('\n')), err: (s) => err.push(...s.split('\n')), interactive: false })
  return { code, out, err }
}

/** Calls the API with a key, against the same data directory the CLI writes. */
async function statusWithKey (key: string): Promise<string> {
  const store = openSqliteStore(dataDir)
  const app = await createAppOn(store, dataDir)
  try {
    const res = await app.inject({ method: 'GET', url: '/gen/html', headers: { authorization: key } })
    return JSON.parse(res.body).error
  } finally {
    await app.close()
    await store.close()
  }
}

describe('npm run cli -- keys', () => {
  let key = ''

  it('creates no database unless asked: exit 66 naming DATA_DIR, nothing written', async () => {
    const r = await cli('keys', 'create', '--name', 'discord-bot')
    assert.equal(r.code, 66)
    assert.equal(r.err[0], `Store: SQLite ${dataDir}/utility-media.sqlite (DATA_DIR from the environment)`)
    assert.match(r.err[1]!, /^Error: no database at \S+utility-media\.sqlite \(DATA_DIR from the environment\); nothing was created\. Point DATA_DIR at the data the server uses, or ENV_FILE at the settings file the server reads .*--create-store/)
    assert.deepEqual(r.out, [])
    assert.deepEqual(fs.readdirSync(dataDir), [])
  })

  it('creates a key and prints it once, on its last line of output', async () => {
    const r = await cli('keys', 'create', '--name', 'discord-bot', '--create-store')
    assert.equal(r.code, 0)
    assert.equal(r.err[0], `Store: SQLite ${dataDir}/utility-media.sqlite (DATA_DIR from the environment)`)
    key = r.out.filter((l) => l !== '').at(-1)!
    assert.match(key, /^um_[A-Za-z0-9_-]{32}$/)
    assert.equal(await statusWithKey(key), 'TEST_ERROR') // accepted: the route's own error
  })

  it('stores only a hash of the key', () => {
    const files = fs.readdirSync(dataDir).map((f) => fs.readFileSync(`${dataDir}/${f}`))
    for (const content of files) assert.equal(content.includes(Buffer.from(key)), false)
  })

  it('lists keys by name with their prefix and status, never the key', async () => {
    const r = await cli('keys', 'list')
    assert.equal(r.code, 0)
    const text = r.out.join('\n')
    assert.match(text, /discord-bot\s+um_\S{4}…\s+active\s+default\s+none\s+-\s+never\s+cli/)
    assert.equal(text.includes(key), false)
    const asJson = JSON.parse((await cli('keys', 'list', '--json')).out.join('\n'))
    assert.deepEqual(asJson.map((k: { name: string, status: string }) => [k.name, k.status]), [['discord-bot', 'active']])
    assert.deepEqual(asJson[0].limits, { rateMax: null, rateWindowMs: null, quotaMax: null, quotaPeriod: null })
  })

  it('sets and shows a key\'s rate limit and quota', async () => {
    let r = await cli('keys', 'limits', 'discord-bot', '--rate', '20/10s', '--quota', '5000/day')
    assert.equal(r.code, 0, r.err.join('\n'))
    assert.match(r.out.join('\n'), /rate 20\/10 seconds, quota 5000\/day/)
    r = await cli('keys', 'limits', 'discord-bot', '--quota', 'none')
    assert.match(r.out.join('\n'), /rate 20\/10 seconds, quota none/)
    r = await cli('keys', 'limits', 'discord-bot', '--rate', 'capacity')
    assert.equal(r.out.join('\n'), 'Key "discord-bot": rate capacity (limited only by what the machine serves), quota none.')
    r = await cli('keys', 'limits', 'discord-bot', '--rate', 'default')
    assert.match(r.out.join('\n'), /rate default, quota none/)
    r = await cli('keys', 'create', '--name', 'metered', '--rate', '100/1m', '--quota', '900/month')
    assert.equal(r.code, 0)
    assert.match(r.out[0]!, /rate 100\/1 minute, quota 900\/month/)
    for (const [args, message] of [[['--rate', 'fast'], /--rate must look like/], [['--quota', '10/week'], /--quota must look like/]] as const) {
      const bad = await cli('keys', 'limits', 'discord-bot', ...args)
      assert.equal(bad.code, 2)
      assert.match(bad.err.join('\n'), message)
    }
  })

  it('reports usage per key and endpoint group', async () => {
    const store = openSqliteStore(dataDir)
    const app = await createAppOn(store, dataDir)
    try {
      // 418: an answer of the caller's making, billed one unit (a 5xx is not billed).
      for (let i = 0; i < 3; i++) await app.inject({ method: 'GET', url: '/gen/html?code=418', headers: { authorization: key } })
    } finally {
      await app.close() // writes pending usage
      await store.close()
    }
    const r = await cli('keys', 'usage', 'discord-bot')
    assert.equal(r.code, 0)
    // three here; the first test's call answered 500 (TEST_ERROR), which is never billed
    assert.match(r.out.join('\n'), /discord-bot\s+system\s+3\s+3/)
    const all = JSON.parse((await cli('keys', 'usage', '--json')).out.join('\n'))
    assert.deepEqual(all.map((k: { name: string }) => k.name), ['discord-bot', 'metered'])
    assert.deepEqual(all[1].groups, {})
    assert.equal((await cli('keys', 'usage', 'ghost')).code, 1)
    assert.equal((await cli('keys', 'usage', '--days', 'x')).code, 2)
  })

  it('reports usage over days, a month or per day, as JSON or CSV: the same numbers as the report', async () => {
    const store = openSqliteStore(dataDir)
    const id = (await store.keys.findByName('metered'))!.id
    try {
      await store.usage.add([
        { keyId: id, day: '2025-10-31', group: 'colors', requests: 5, units: 5 },
        { keyId: id, day: '2025-11-01', group: 'colors', requests: 2, units: 2 },
        { keyId: id, day: '2025-11-30', group: 'conversion', requests: 1, units: 5 }
      ])
    } finally { await store.close() }
    let r = await cli('keys', 'usage', 'metered', '--from', '2025-11-01', '--to', '2025-11-30')
    assert.equal(r.code, 0, r.err.join('\n'))
    assert.match(r.out.join('\n'), /from 2025-11-01 to 2025-11-30/)
    assert.match(r.out.join('\n'), /metered\s+colors\s+2\s+2\n.*metered\s+conversion\s+1\s+5\ntotal\s+3\s+7/)
    r = await cli('keys', 'usage', 'metered', '--month', '2025-11', '--by', 'day', '--json')
    assert.deepEqual(JSON.parse(r.out.join('\n')), {
      from: '2025-11-01',
      to: '2025-11-30',
      group: 'day',
      rows: [
        { period: '2025-11-01', key_id: String(id), key_name: 'metered', endpoint_group: 'colors', requests: 2, units: 2 },
        { period: '2025-11-30', key_id: String(id), key_name: 'metered', endpoint_group: 'conversion', requests: 1, units: 5 }
      ],
      totals: { requests: 3, units: 7 }
    })
    r = await cli('keys', 'usage', '--from', '2025-10-01', '--to', '2025-11-30', '--csv')
    assert.equal(r.code, 0)
    assert.deepEqual(r.out, [
      'period,key_id,key_name,endpoint_group,requests,units\r',
      `2025-10,${id},metered,colors,5,5\r`,
      `2025-11,${id},metered,colors,2,2\r`,
      `2025-11,${id},metered,conversion,1,5\r`
    ])
    r = await cli('keys', 'usage', 'metered', '--from', '2025-10-31', '--to', '2025-10-31', '--by', 'day')
    assert.match(r.out.join('\n'), /2025-10-31\s+metered\s+colors\s+5\s+5/)
    for (const [args, message] of [
      [['--from', '2025-11-31'], /--from must be a UTC day/],
      [['--to', '2025-11-01'], /--to needs --from/],
      [['--from', '2025-11-02', '--to', '2025-11-01'], /--from \(2025-11-02\) is after --to/],
      [['--month', '2025-13'], /--month must be a UTC month/],
      [['--month', '2025-11', '--days', '3'], /one of --from\/--to, --month or --days/],
      [['--by', 'week'], /--by must be day or month/],
      [['--json', '--csv'], /--json or --csv/]
    ] as const) {
      const bad = await cli('keys', 'usage', ...args)
      assert.equal(bad.code, 2, args.join(' '))
      assert.match(bad.err.join('\n'), message)
    }
  })

  it('disables, enables and revokes, and the API follows', async () => {
    assert.equal((await cli('keys', 'disable', 'discord-bot')).code, 0)
    assert.equal(await statusWithKey(key), 'AUTH_KEY_DISABLED')
    assert.equal((await cli('keys', 'enable', 'discord-bot')).code, 0)
    assert.equal(await statusWithKey(key), 'TEST_ERROR')
    const revoked = await cli('keys', 'revoke', 'discord-bot')
    assert.equal(revoked.code, 0)
    assert.match(revoked.out.join('\n'), /revoked/)
    assert.equal(await statusWithKey(key), 'AUTH_KEY_REVOKED')
    const again = await cli('keys', 'enable', 'discord-bot')
    assert.equal(again.code, 1)
    assert.match(again.err.join('\n'), /revoked/)
  })

  it('fails clearly, with a non-zero exit, on every mistake', async () => {
    assert.equal((await cli('keys', 'create', '--name', 'taken-name')).code, 0)
    const cases: Array<[string[], number, RegExp]> = [
      [['keys', 'create', '--name', 'taken-name'], 1, /already exists/],
      [['keys', 'create'], 2, /needs a name/],
      [['keys', 'create', '--name', 'bad name!'], 2, /Invalid key name/],
      [['keys', 'create', '--nmae', 'x'], 2, /Unknown option/],
      [['keys', 'disable', 'nobody'], 1, /No key named "nobody"/],
      [['keys', 'disable'], 2, /one key name/],
      [['keys', 'frobnicate'], 2, /Unknown command/],
      [['nothing'], 2, /Unknown command group/]
    ]
    for (const [argv, code, message] of cases) {
      const r = await cli(...argv)
      assert.equal(r.code, code, argv.join(' '))
      assert.match(r.err.join('\n'), message, argv.join(' '))
    }
  })

  it('explains itself with --help', async () => {
    for (const argv of [['--help'], ['keys', '--help'], ['keys', 'create', '--help']]) {
      const r = await cli(...argv)
      assert.equal(r.code, 0)
      assert.match(r.out.join('\n'), /Usage: npm run cli/)
    }
  })

  it('stops with a message naming a bad setting', async () => {
    const out: string[] = []
    const code = await runCli(['keys', 'list'], { DATA_DIR: dataDir, LOG_LEVEL: 'loud' }, { out: () => {}, err: (s) => out.push(s), interactive: false })
    assert.equal(code, 78)
    assert.match(out.join('\n'), /LOG_LEVEL/)
  })

  it('runs as a real process with the documented exit codes', () => {
    const run = (args: string[]) => spawnSync(process.execPath, ['dist/cli/index.js', ...args], { env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' })
    const ok = run(['keys', 'create', '--name', 'from-process'])
    assert.equal(ok.status, 0, ok.stderr)
    assert.match(ok.stdout.trim().split('\n').at(-1)!, /^um_/)
    assert.equal(run(['keys', 'revoke', 'nobody']).status, 1)
  })
})

describe('keys at start-up', () => {
  it('creates one key on an empty store and prints it, once', async () => {
    const dir = tempDir('uma-boot-')
    const store = openSqliteStore(dir)
    try {
      const printed: string[] = []
      await prepareKeys(testConfig(dir), store, (s) => printed.push(s))
      assert.equal(printed.length, 1)
      const key = /Authorization: (um_\S+)"/.exec(printed[0]!)![1]!
      assert.equal((await store.keys.list()).length, 1)
      // The operator's key: shown as limited by capacity (it printed "1000000/1 minute").
      const listed: string[] = []
      assert.equal(await runCli(['keys', 'list'], { DATA_DIR: dir }, { out: (s) => listed.push(s), err: () => {}, interactive: false }), 0)
      assert.match(listed.join('\n'), /^default\s+um_\S{4}…\s+active\s+capacity\s+none\s+-\s+never\s+bootstrap\s/m)
      assert.doesNotMatch(listed.join('\n'), /1000000/)
      await prepareKeys(testConfig(dir), store, (s) => printed.push(s))
      assert.equal(printed.length, 1, 'a second start prints nothing')
      assert.equal(await statusIn(dir, store, key), 'TEST_ERROR')
    } finally {
      await store.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('adds API_KEYS instead, and a revoked env key stays revoked across restarts', async () => {
    const dir = tempDir('uma-boot-')
    const store = openSqliteStore(dir)
    const envKey = 'automation-key-0123456789'
    try {
      const printed: string[] = []
      const config = testConfig(dir, { apiKeys: [envKey] })
      await prepareKeys(config, store, (s) => printed.push(s))
      assert.equal(printed.length, 0, 'no bootstrap key when API_KEYS gives one')
      const [record] = await store.keys.list()
      assert.equal(record!.source, 'env')
      assert.equal(await statusIn(dir, store, envKey), 'TEST_ERROR')
      await store.keys.setStatus(record!.name, 'revoked')
      await prepareKeys(config, store, (s) => printed.push(s))
      assert.equal((await store.keys.list()).length, 1)
      assert.equal(await statusIn(dir, store, envKey), 'AUTH_KEY_REVOKED')
    } finally {
      await store.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

async function statusIn (dir: string, store: ReturnType<typeof openSqliteStore>, key: string): Promise<string> {
  const app = await createAppOn(store, dir)
  try {
    return JSON.parse((await app.inject({ method: 'GET', url: '/gen/html', headers: { authorization: key } })).body).error
  } finally {
    await app.close()
  }
}
