// The operators' command line run as operators run it: the BUILT CLI (node
// dist/cli/index.js) as a process, with its documented exit codes (0 done, 1 failed,
// 2 usage mistake).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, before, describe, it } from 'node:test'
import path from 'node:path'
import { ensureStarterCatalog, STARTER_GIFS_PER_TYPE } from '../../../src/gifs/starter.js'
import { renderStarterGif } from '../../../src/gifs/starter-art.js'
import { GIF_TYPES } from '../../../src/gifs/types.js'
import { openSqliteStore } from '../../../src/store/sqlite/index.js'
import { tempDir } from '../../support/helpers.js'
import { request, startServerProcess } from '../../support/processes.js'
import { type CliResult, lastLine, runBuiltCli } from '../../support/cli.js'
import { spawnSync } from 'node:child_process'

let dataDir: string
before(async () => {
  dataDir = tempDir('uma-cli-proc-')
  const store = openSqliteStore(dataDir)
  try {
    await ensureStarterCatalog(store.gifs, store.gifFiles)
  } finally {
    await store.close()
  }
})
after(() => fs.rmSync(dataDir, { recursive: true, force: true }))

function cli (...args: string[]): CliResult {
  return runBuiltCli(dataDir, args)
}

function gifs (category?: string): Array<{ id: string, category: string }> {
  return JSON.parse(cli('gifs', 'list', '--limit', '1000', '--json', ...(category ? ['--category', category] : [])).out)
}

describe('gifs remove', () => {
  it('removes several ids in one call (it took one id per call, 1.2 s each)', () => {
    const [a, b] = gifs('pat')
    const r = cli('gifs', 'remove', a!.id, b!.id)
    assert.equal(r.code, 0, r.err)
    assert.equal(r.out, 'Removed 2 gif(s): pat 2.\n')
    assert.equal(gifs('pat').length, STARTER_GIFS_PER_TYPE - 2)
  })

  it('removes the ids it knows and exits 1 naming the unknown ones', () => {
    const [a] = gifs('pat')
    const r = cli('gifs', 'remove', a!.id, '999999')
    assert.equal(r.code, 1)
    assert.equal(r.out, 'Removed 1 gif(s): pat 1.\n')
    assert.match(r.err, /no gif has the id 999999/)
  })

  it('removes a whole category with --category', () => {
    const r = cli('gifs', 'remove', '--category', 'HUG')
    assert.equal(r.code, 0, r.err)
    assert.equal(r.out, `Removed ${STARTER_GIFS_PER_TYPE} gif(s): hug ${STARTER_GIFS_PER_TYPE}.\n`)
    assert.deepEqual(gifs('hug'), [])
  })

  it('exits 2 for usage mistakes, pointing at --help', () => {
    for (const args of [[], ['abc'], ['1', '--starter'], ['--category', 'nope'], ['--category', 'hug', '--starter'], ['--frobnicate']]) {
      const r = cli('gifs', 'remove', ...args)
      assert.equal(r.code, 2, `gifs remove ${args.join(' ')}: ${r.err}`)
      assert.match(r.err, /--help/)
    }
  })

  it('removes every starter gif with --starter, keeping the others, and their files', () => {
    const added = cli('gifs', 'add-url', 'https://media.example.test/hug/1.gif', '--category', 'hug')
    assert.equal(added.code, 0, added.err)
    const left = gifs().length
    const r = cli('gifs', 'remove', '--starter')
    assert.equal(r.code, 0, r.err)
    assert.match(r.out, new RegExp(`^Removed ${left - 1} gif\\(s\\): `))
    assert.deepEqual(gifs().map((g) => g.category), ['hug'])
    assert.deepEqual(fs.readdirSync(`${dataDir}/gifs`).filter((f) => f.endsWith('.gif')), [])
    assert.ok(GIF_TYPES.length > 0)
  })
})

describe('keys', () => {
  const list = (): Array<{ name: string, status: string }> => JSON.parse(cli('keys', 'list', '--json').out)

  it('an invalid --name is a usage mistake: exit 2', () => {
    const r = cli('keys', 'create', '--name', 'bad name!')
    assert.equal(r.code, 2)
    assert.match(r.err, /Invalid key name "bad name!"/)
    assert.match(r.err, /--help/)
  })

  it('--rate 0/10s says the count must be at least 1 (it said "must look like 100/1m")', () => {
    const r = cli('keys', 'create', '--name', 'zero', '--rate', '0/10s')
    assert.equal(r.code, 2)
    assert.match(r.err, /--rate: the count must be at least 1, got "0\/10s"/)
    const q = cli('keys', 'create', '--name', 'zero', '--quota', '0/day')
    assert.equal(q.code, 2)
    assert.match(q.err, /--quota: the count must be at least 1/)
    assert.equal(cli('keys', 'create', '--name', 'zero', '--rate', 'fast').code, 2)
  })

  it('renames a key; a taken or unknown name fails with 1, an invalid one is usage (2)', () => {
    assert.equal(cli('keys', 'create', '--name', 'old-name').code, 0)
    assert.equal(cli('keys', 'create', '--name', 'other').code, 0)
    const r = cli('keys', 'rename', 'old-name', 'new-name')
    assert.equal(r.code, 0, r.err)
    assert.equal(r.out, 'Key "old-name" is now named "new-name".\n')
    assert.ok(list().some((k) => k.name === 'new-name'))
    assert.equal(cli('keys', 'rename', 'new-name', 'other').code, 1)
    assert.equal(cli('keys', 'rename', 'nobody', 'someone').code, 1)
    assert.equal(cli('keys', 'rename', 'new-name', 'bad name!').code, 2)
    assert.equal(cli('keys', 'rename', 'new-name').code, 2)
  })

  it('gives a revoked key\'s name to a new key (it could never be reused), keeping the revoked record', () => {
    assert.equal(cli('keys', 'create', '--name', 'bot').code, 0)
    assert.equal(cli('keys', 'revoke', 'bot').code, 0)
    const again = cli('keys', 'create', '--name', 'bot')
    assert.equal(again.code, 0, again.err)
    assert.match(again.out.trim().split('\n').at(-1)!, /^um_/)
    const bots = list().filter((k) => k.name.startsWith('bot'))
    assert.deepEqual(bots.map((k) => [k.name.replace(/\d+$/, 'N'), k.status]), [['bot.revoked-N', 'revoked'], ['bot', 'active']])
    // An active key's name stays taken.
    assert.equal(cli('keys', 'create', '--name', 'bot').code, 1)
  })

  it('documents the exit codes in --help', () => {
    for (const args of [['--help'], ['keys', '--help'], ['gifs', '--help']]) {
      const r = cli(...args)
      assert.equal(r.code, 0)
      assert.match(r.out, /Exit codes: 0 done, 1 failed.*2\s+usage\s+mistake/s)
    }
  })
})

describe('gifs import of one file', () => {
  const KEY = 'cli-one-gif-key-0123456789'
  let dir: string
  let src: string
  before(() => {
    dir = tempDir('uma-cli-one-gif-')
    src = tempDir('uma-cli-one-gif-src-')
  })
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true })
    fs.rmSync(src, { recursive: true, force: true })
  })

  it('refuses a single file without --category in one sentence, changing nothing', () => {
    const file = path.join(src, 'alone.gif')
    fs.writeFileSync(file, renderStarterGif('alone', 1, 48, 32))
    const r = runBuiltCli(dir, ['gifs', 'import', file])
    assert.equal(r.code, 1)
    assert.equal(r.out, '')
    // One line naming the store, then the one sentence.
    const [store, ...rest] = r.err.split('\n')
    assert.match(store!, /^Store: SQLite \S+utility-media\.sqlite \(DATA_DIR from the environment[^)]*\)$/)
    assert.equal(rest.join('\n'), `Error: "${file}" is a file, not a folder of <category>/<file>.gif: name its category to import it alone (gifs import ${file} --category NAME)\n`)
    assert.equal(runBuiltCli(dir, ['gifs', 'list', '--json']).out.trim(), '[]')
  })

  it('imports FILE.gif with --category hug (it said "is not a folder"), and /sfw/gif/hug serves it', async () => {
    const bytes = renderStarterGif('hug', 2, 48, 32)
    const file = path.join(src, 'FILE.gif')
    fs.writeFileSync(file, bytes)
    const r = runBuiltCli(dir, ['gifs', 'import', file, '--category', 'hug'])
    assert.equal(r.code, 0, r.err)
    assert.equal(r.out, 'Added 1, skipped 0 duplicate(s), rejected 0.\n')
    // Again: the same content is a duplicate, not a second gif.
    assert.equal(runBuiltCli(dir, ['gifs', 'import', file, '--category', 'HUG']).out, 'Added 0, skipped 1 duplicate(s), rejected 0.\n')

    const server = await startServerProcess({ DATA_DIR: dir, API_KEYS: KEY, LOG_LEVEL: 'warn', GIF_STARTER_CATALOG: 'false' })
    try {
      const res = await request(`${server.url}/sfw/gif/hug`, { headers: { authorization: KEY } })
      assert.equal(res.status, 200, res.body.toString())
      const body = JSON.parse(res.body.toString()) as { success: boolean, code: number, message: string, id: string, file: string }
      assert.deepEqual([body.success, body.code, body.message], [true, 200, ''])
      assert.equal(body.id, JSON.parse(runBuiltCli(dir, ['gifs', 'list', '--json']).out)[0].id)
      assert.ok(body.file.startsWith(`${server.url}/`), body.file)
      // The file URL is fetched without a key, as chat clients do, and holds the bytes imported.
      const gif = await request(body.file)
      assert.equal(gif.status, 200)
      assert.equal(gif.headers['content-type'], 'image/gif')
      assert.ok(gif.body.equals(bytes))
    } finally {
      await server.stop()
    }
  })
})

// Issue 39 item 6: an operator following docs/operations.md's systemd recipe (settings in
// the unit's EnvironmentFile, no .env in the checkout) ran `keys create`; it made a new
// SQLite file under the default DATA_DIR, exited 0, and the server never knew the key.
describe('the store a command uses (settings in ENV_FILE, no .env)', () => {
  let dir: string
  let cwd: string
  let envFile: string
  before(() => {
    dir = tempDir('uma-cli-envfile-data-')
    cwd = tempDir('uma-cli-envfile-cwd-') // the checkout: no .env in it
    envFile = path.join(tempDir('uma-cli-envfile-etc-'), 'utility-media-api.env')
    fs.writeFileSync(envFile, `DATA_DIR=${dir}\nLOG_LEVEL=warn\nGIF_STARTER_CATALOG=false\n`)
  })
  after(() => {
    for (const d of [dir, cwd, path.dirname(envFile)]) fs.rmSync(d, { recursive: true, force: true })
  })

  /** The built CLI in `cwd` with the test's environment minus the server's settings, plus `env`. */
  function run (args: string[], env: Record<string, string>): CliResult {
    const base = { ...process.env }
    for (const name of ['DATA_DIR', 'DATABASE_URL', 'ENV_FILE']) delete base[name]
    const r = spawnSync(process.execPath, [path.resolve('dist/cli/index.js'), ...args], { cwd, env: { ...base, ...env }, encoding: 'utf8', timeout: 60_000 })
    return { code: r.status, out: r.stdout, err: r.stderr }
  }

  it('keys create with ENV_FILE uses the server\'s store: the running server accepts the key', async () => {
    // systemd hands the EnvironmentFile's settings to the server as its environment.
    const server = await startServerProcess({ DATA_DIR: dir, LOG_LEVEL: 'warn', GIF_STARTER_CATALOG: 'false' }, { cwd })
    try {
      const r = run(['keys', 'create', '--name', 'customer-1'], { ENV_FILE: envFile })
      assert.equal(r.code, 0, r.err)
      assert.equal(r.err, `Store: SQLite ${dir}/utility-media.sqlite (DATA_DIR from ENV_FILE ${envFile})\n`)
      const me = await request(`${server.url}/me`, { headers: { authorization: lastLine(r.out) } })
      assert.equal(me.status, 200, me.body.toString())
      assert.equal(JSON.parse(me.body.toString()).name, 'customer-1')
    } finally {
      await server.stop()
    }
  })

  it('with a wrong DATA_DIR, or none, refuses with exit 66 naming DATA_DIR and ENV_FILE, and creates nothing', () => {
    const wrong = path.join(cwd, 'var', 'lib', 'uma')
    for (const [env, where, from] of [
      [{ DATA_DIR: wrong }, `${wrong}/utility-media.sqlite`, 'DATA_DIR from the environment; no .env file, ENV_FILE not set'],
      [{}, `${cwd}/data/utility-media.sqlite`, 'DATA_DIR not set, so the default; no .env file, ENV_FILE not set']
    ] as const) {
      const r = run(['keys', 'create', '--name', 'customer-2'], env)
      assert.equal(r.code, 66, r.err)
      assert.equal(r.out, '')
      assert.equal(r.err, `Store: SQLite ${where} (${from})\n` +
        `Error: no database at ${where} (${from}); nothing was created. Point DATA_DIR at the data the server uses, or ENV_FILE at the settings file the server reads ` +
        '(a systemd unit\'s EnvironmentFile: ENV_FILE=/etc/utility-media-api.env npm run cli -- ...), or add --create-store to make a new, empty database there.\n')
      assert.deepEqual(fs.readdirSync(cwd), [], 'nothing created in the checkout')
    }
    // The server's store has not heard of the refused key either.
    const listed = JSON.parse(run(['keys', 'list', '--json'], { ENV_FILE: envFile }).out) as Array<{ name: string }>
    assert.equal(listed.some((k) => k.name === 'customer-2'), false)
  })

  it('makes a new database only when asked with --create-store', () => {
    const fresh = path.join(cwd, 'fresh')
    const r = run(['keys', 'create', '--name', 'first', '--create-store'], { DATA_DIR: fresh })
    assert.equal(r.code, 0, r.err)
    assert.match(lastLine(r.out), /^um_/)
    assert.ok(fs.existsSync(path.join(fresh, 'utility-media.sqlite')))
    assert.equal(run(['keys', 'list'], { DATA_DIR: fresh }).code, 0)
    fs.rmSync(fresh, { recursive: true, force: true })
  })
})
