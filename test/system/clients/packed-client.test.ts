// The TypeScript client where a bot developer meets it (issue 38, item 7): `npm pack` of
// clients/typescript, the tarball installed into an empty project (and the folder itself,
// as its README says), a small TypeScript program compiled against the installed package
// with `strict` (`level: 12`, a number, must type-check), then run as a process against
// the built server: a picture with its rate-limit and X-Image-Reduced headers read, a
// conversion of it, a 429 answered with Retry-After and retried by the client (retry on),
// the same limit thrown with the retry off, and a signed link. Offline: npm installs only
// the local tarball (--offline, a cache of the test's own), and the compiler is the
// repository's.
import assert from 'node:assert/strict'
import { execFile, spawnSync } from 'node:child_process'
import { createHmac } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { tempDirs } from '../../support/helpers.js'
import { type ServerProcess, startServerProcess } from '../../support/processes.js'

const CLIENT_DIR = path.resolve('clients', 'typescript')
const TSC = path.resolve('node_modules', 'typescript', 'bin', 'tsc')
const KEY = 'packed-client-key-0123456789abcdef'
/** Two pictures (5 units each) fill the window: the third is answered 429 with Retry-After of at most 2 s. */
const RATE = { RATE_LIMIT_MAX: '10', RATE_LIMIT_WINDOW: '2s' }
const LINK = { id: 'AbCdEfGhIjKlMnOp', secret: 'ls_packed-client-secret' }

const BOT = `import { signLink, UtilityMediaApi, UtilityMediaApiError, type TemplateFields } from '@utility-media-api/client'

declare const process: { argv: string[], stdout: { write (text: string): boolean } }
const [baseUrl, key] = process.argv.slice(2) as [string, string]

const seen: Array<{ status: number, retryAfter: string | null }> = []
const watched: typeof fetch = async (input, init) => {
  const res = await fetch(input, init)
  seen.push({ status: res.status, retryAfter: res.headers.get('retry-after') })
  return res
}
const api = new UtilityMediaApi({ baseUrl, key, fetch: watched, retry: { retries: 3, maxRetryAfterSeconds: 10 } })

const fields: TemplateFields = { username: 'Ada', level: 12, rank: 3, xp: 420, max_xp: 1000 }
const card = await api.genTemplate('rank', { ...fields, max_bytes: 20_000 })
const webp = await api.convertImageWebp(card, { quality: 70 })

// Pictures until one is answered 429 and sent again after its Retry-After.
let attempts = 1
for (let i = 0; i < 10 && attempts === 1; i++) attempts = (await api.genTemplate('rank', { ...fields, level: 13 + i })).meta.attempts

const plain = new UtilityMediaApi({ baseUrl, key })
let refused: { status: number, code: string, retryAfter: number | undefined } | undefined
for (let i = 0; i < 10 && refused === undefined; i++) {
  try {
    await plain.genTemplate('rank', fields)
  } catch (err) {
    if (!(err instanceof UtilityMediaApiError)) throw err
    refused = { status: err.status, code: err.code, retryAfter: err.retryAfter }
  }
}

process.stdout.write(JSON.stringify({
  card: { bytes: card.length, signature: Array.from(card.subarray(1, 4), (c) => String.fromCharCode(c)).join(''), reduced: card.meta.reduced, header: card.meta.headers.get('x-image-reduced'), rateLimit: card.meta.rateLimit, attempts: card.meta.attempts },
  webp: { riff: Array.from(webp.subarray(8, 12), (c) => String.fromCharCode(c)).join(''), width: webp.meta.headers.get('x-image-width') },
  attempts,
  seen,
  refused,
  link: signLink(baseUrl, ${JSON.stringify(LINK)}, '/gen/rank?level=12', 0)
}))
`

const TSCONFIG = {
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], types: [], strict: true, skipLibCheck: false, outDir: 'out' },
  include: ['bot.ts']
}

function npm (args: string[], cwd: string, cache: string): string {
  const run = spawnSync('npm', [...args, '--offline', '--cache', cache, '--no-audit', '--no-fund', '--no-update-notifier'], { cwd, encoding: 'utf8' })
  assert.equal(run.status, 0, `npm ${args.join(' ')}:\n${run.stdout}${run.stderr}`)
  return run.stdout
}

/** An empty ES module project, the package installed into it from `spec` (a tarball or a folder). */
function project (dirs: ReturnType<typeof tempDirs>, spec: string, cache: string): string {
  const dir = dirs.make('uma-bot-')
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'a-bot', private: true, type: 'module' }))
  npm(['install', '--no-package-lock', spec], dir, cache)
  fs.writeFileSync(path.join(dir, 'bot.ts'), BOT)
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG))
  const tsc = spawnSync(process.execPath, [TSC, '-p', dir], { encoding: 'utf8' })
  assert.equal(tsc.status, 0, `the bot does not compile against ${spec}:\n${tsc.stdout}${tsc.stderr}`)
  return dir
}

describe('clients/typescript, packed and installed into a bot\'s project', () => {
  const dirs = tempDirs()
  let server: ServerProcess
  let cache: string
  let tarball: string

  before(async () => {
    cache = dirs.make('uma-npm-cache-')
    const packs = dirs.make('uma-pack-')
    // The files the package ships (dist/ is checked against its sources by typescript-client.test.ts).
    const packed = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', packs], CLIENT_DIR, cache)) as Array<{ filename: string, files: Array<{ path: string }> }>
    tarball = path.join(packs, packed[0]!.filename)
    const files = packed[0]!.files.map((f) => f.path)
    for (const file of ['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/link.js', 'dist/schema.d.ts']) assert.ok(files.includes(file), `the tarball holds ${file}`)
    server = await startServerProcess({ DATA_DIR: dirs.make('uma-packed-data-'), API_KEYS: KEY, LOG_LEVEL: 'warn', ...RATE })
  })

  after(async () => {
    await server?.stop()
    dirs.removeAll()
  })

  it('from the tarball: compiles with level: 12, draws, reads the headers, converts, retries a 429 after Retry-After, signs a link', async () => {
    const dir = project(dirs, tarball, cache)
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(dir, 'out', 'bot.js'), server.url, KEY], { timeout: 120_000 })
    const out = JSON.parse(stdout)
    // The picture and the headers read from it.
    assert.equal(out.card.signature, 'PNG')
    assert.ok(out.card.bytes <= 20_000, `${out.card.bytes} bytes`)
    assert.ok(out.card.reduced.length > 0, 'X-Image-Reduced read')
    assert.equal(out.card.reduced.join(','), out.card.header)
    assert.equal(out.card.rateLimit.limit, 10)
    assert.ok(Number.isInteger(out.card.rateLimit.remaining) && out.card.rateLimit.reset >= 0 && out.card.rateLimit.reset <= 2)
    assert.equal(out.card.attempts, 1)
    assert.deepEqual(out.webp, { riff: 'WEBP', width: '934' })
    // A 429 with Retry-After, then the same call answered: one call, several attempts.
    assert.ok(out.attempts >= 2, `attempts ${out.attempts}`)
    const refusal = out.seen.findIndex((s: { status: number }) => s.status === 429)
    assert.ok(refusal >= 0, `a 429 was seen: ${JSON.stringify(out.seen)}`)
    assert.match(out.seen[refusal].retryAfter, /^\d+$/)
    assert.equal(out.seen[refusal + 1]?.status, 200, 'the retry after Retry-After was answered')
    // Off: thrown, with the wait the server asked for.
    assert.equal(out.refused.status, 429)
    assert.equal(out.refused.code, 'RATE_LIMITED')
    assert.ok(out.refused.retryAfter >= 0 && out.refused.retryAfter <= 2)
    // The link, signed as the scheme says.
    const signature = createHmac('sha256', LINK.secret).update(`${LINK.id}/0/gen/rank?level=12`).digest('base64url')
    assert.equal(out.link, `${server.url}/l/${LINK.id}/0/${signature}/gen/rank?level=12`)
  })

  it('from the folder (npm install ./clients/typescript): the same program compiles and loads it, no build step', async () => {
    const dir = project(dirs, CLIENT_DIR, cache)
    const loaded = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', 'const m = await import("@utility-media-api/client"); console.log(Object.keys(m).sort().join(","))'], { cwd: dir })
    assert.equal(loaded.stdout.trim(), 'UtilityMediaApi,UtilityMediaApiError,customLinkTarget,linkTarget,signLink')
  })
})
