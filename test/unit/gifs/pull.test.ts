// gifs pull against local stand-ins of each API (no network): a category filled with the
// source's attribution, the source's names for our types, the User-Agent, the pace, the
// SSRF-safe fetcher's refusal of loopback unless allowed, and re-runs that add nothing twice.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { runCli } from '../../../src/cli/main.js'
import { pullGifs } from '../../../src/gifs/pull.js'
import { waifuPics } from '../../../src/gifs/sources.js'
import { parseAllowList } from '../../../src/remote-fetch/address.js'
import { createRemoteFetcher } from '../../../src/remote-fetch/fetcher.js'
import { sha256 } from '../../../src/store/gif-files.js'
import type { GifRecord } from '../../../src/store/interface.js'
import { gifDirOf } from '../../../src/store/local-gif-files.js'
import { openSqliteStore } from '../../../src/store/sqlite/index.js'
import { tempDir } from '../../support/helpers.js'
import { type FakeGifApis, startFakeGifApis } from '../../support/fake-gif-apis.js'

let dataDir: string
let api: FakeGifApis
beforeEach(async () => {
  dataDir = tempDir('uma-pull-')
  api = await startFakeGifApis({ pool: 12 })
})
afterEach(async () => {
  await api.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

const CONTACT = 'https://ops.example.test/contact'

async function pull (env: Record<string, string>, ...argv: string[]): Promise<{ code: number, out: string, err: string }> {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(['gifs', 'pull', ...argv, '--create-store'], { DATA_DIR: dataDir, LOG_LEVEL: 'silent', GIF_STARTER_CATALOG: 'false', REMOTE_FETCH_ALLOW: '127.0.0.1', GIF_PULL_CONTACT: CONTACT, ...env }, {
    out: (t) => out.push(t), err: (t) => err.push(t), interactive: false
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

async function rows (): Promise<GifRecord[]> {
  const store = openSqliteStore(dataDir)
  try {
    return await store.gifs.list({ limit: 10_000 })
  } finally {
    await store.close()
  }
}

function storedFiles (): string[] {
  const dir = gifDirOf(dataDir)
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []
}

const SOURCES: Array<{ name: string, prefix: string, setting: string, category: string, theirs: string }> = [
  { name: 'nekos.best', prefix: '/nekos', setting: 'GIF_PULL_NEKOS_BEST_URL', category: 'hug', theirs: '/nekos/hug?amount=' },
  { name: 'waifu.pics', prefix: '/waifu', setting: 'GIF_PULL_WAIFU_PICS_URL', category: 'pat', theirs: '/waifu/many/sfw/pat' },
  { name: 'otakugifs', prefix: '/otaku', setting: 'GIF_PULL_OTAKUGIFS_URL', category: 'smug', theirs: '/otaku/gif?reaction=smug&format=gif' },
  { name: 'purrbot', prefix: '/purr', setting: 'GIF_PULL_PURRBOT_URL', category: 'wag', theirs: '/purr/img/sfw/tail/gif' }
]

describe('gifs pull', () => {
  for (const s of SOURCES) {
    it(`${s.name}: fills a category, at the base URL its setting names, with its User-Agent`, async () => {
      const res = await pull({ [s.setting]: api.url + s.prefix }, s.name, '--category', s.category, '--count', '5', '--interval-ms', '0')
      assert.equal(res.code, 0, res.err)
      assert.match(res.out, new RegExp(`^Added 5 of 5 ${s.category} gif\\(s\\) from ${s.name.replace('.', '\\.')}; skipped 0 duplicate\\(s\\), 0 near-duplicate\\(s\\), 0 refused; \\d+ request\\(s\\)\\.$`))
      const list = await rows()
      assert.equal(list.length, 5)
      assert.ok(list.every((g) => g.category === s.category))
      assert.deepEqual(new Set(list.map((g) => g.hash)), new Set([0, 1, 2, 3, 4].map((i) => sha256(api.gif(i)))))
      assert.deepEqual(storedFiles(), list.map((g) => `${g.hash}.gif`).sort())
      assert.ok(api.requests[0]!.path.startsWith(s.theirs), api.requests[0]!.path)
      assert.ok(api.requests.every((r) => r.userAgent === `utility-media-api/0.1.0 (${CONTACT})`), api.requests[0]!.userAgent)
      assert.equal(fs.existsSync(path.join(dataDir, 'pulls')) && fs.readdirSync(path.join(dataDir, 'pulls')).length > 0, false, 'the finished run leaves no journal')
    })
  }

  it('nekos.best: keeps the attribution of both answer shapes', async () => {
    const res = await pull({}, 'nekos.best', '--category', 'hug', '--count', '4', '--interval-ms', '0', '--base-url', `${api.url}/nekos`)
    assert.equal(res.code, 0, res.err)
    assert.equal(api.requests[0]!.path, '/nekos/hug?amount=4')
    const byHash = new Map((await rows()).map((g) => [g.hash, g]))
    const at = (i: number) => { const g = byHash.get(sha256(api.gif(i)))!; return [g.animeName, g.artist, g.artistUrl, g.sourceUrl] }
    assert.deepEqual(at(0), ['Anime 0', null, null, null])
    assert.deepEqual(at(1), [null, 'Artist 1', 'https://artists.example/1', 'https://source.example/1'])
  })

  it('a second run adds new gifs only, and stops when the source has nothing new', async () => {
    const base = ['--base-url', `${api.url}/otaku`, '--interval-ms', '0']
    assert.equal((await pull({}, 'otakugifs', '--category', 'hug', '--count', '5', ...base)).code, 0)
    const second = await pull({}, 'otakugifs', '--category', 'hug', '--count', '5', ...base)
    assert.equal(second.code, 0, second.err)
    assert.equal((await rows()).length, 10)
    // 12 in the pool: 2 more, then only repeats.
    const third = await pull({}, 'otakugifs', '--category', 'hug', '--count', '5', ...base)
    assert.equal(third.code, 1)
    assert.match(third.out, /^Added 2 of 5 hug gif\(s\)/)
    assert.match(third.err, /gave nothing new/)
    const list = await rows()
    assert.equal(list.length, 12)
    assert.equal(new Set(list.map((g) => g.hash)).size, 12)
    assert.equal(storedFiles().length, 12)
  })

  it('paces its requests', async () => {
    const res = await pull({}, 'purrbot', '--category', 'hug', '--count', '3', '--interval-ms', '100', '--base-url', `${api.url}/purr`)
    assert.equal(res.code, 0, res.err)
    assert.equal(api.requests.length, 6)
    for (let i = 1; i < api.requests.length; i++) {
      const gap = api.requests[i]!.at - api.requests[i - 1]!.at
      assert.ok(gap >= 90, `request ${i} came ${gap} ms after the one before`)
    }
  })

  it('fetches through the SSRF-safe fetcher: loopback is refused unless REMOTE_FETCH_ALLOW names it', async () => {
    const res = await pull({ REMOTE_FETCH_ALLOW: '' }, 'waifu.pics', '--category', 'hug', '--count', '1', '--base-url', `${api.url}/waifu`)
    assert.equal(res.code, 1)
    assert.match(res.err, /points to 127\.0\.0\.1, a loopback address/)
    assert.equal(api.requests.length, 0)
    assert.deepEqual(await rows(), [])
  })

  it('refuses usage mistakes: no contact, a source or type it does not know, a type the source lacks', async () => {
    assert.equal((await pull({ GIF_PULL_CONTACT: '' }, 'purrbot', '--category', 'hug', '--count', '1')).code, 2)
    assert.equal((await pull({}, 'giphy', '--category', 'hug', '--count', '1')).code, 2)
    assert.equal((await pull({}, 'purrbot', '--category', 'hugz', '--count', '1')).code, 2)
    assert.equal((await pull({}, 'purrbot', '--category', 'hug', '--count', '0')).code, 2)
    const lacks = await pull({}, 'purrbot', '--category', 'baka', '--count', '1', '--base-url', `${api.url}/purr`)
    assert.equal(lacks.code, 1)
    assert.match(lacks.err, /purrbot has no "baka" gifs/)
    const named = await pull({}, 'purrbot', '--category', 'baka', '--source-category', 'angry', '--count', '1', '--interval-ms', '0', '--base-url', `${api.url}/purr`)
    assert.equal(named.code, 0, named.err)
    assert.equal(api.requests[0]!.path, '/purr/img/sfw/angry/gif')
  })

  it('stops inside one answer once maxFruitless URLs in a row brought nothing (it read the whole answer first)', async () => {
    const dead = await startFakeGifApis({ pool: 1, dead: 30 })
    const store = openSqliteStore(dataDir)
    try {
      const report = await pullGifs({
        source: waifuPics,
        baseUrl: `${dead.url}/waifu`,
        category: 'hug',
        count: 5,
        store: store.gifs,
        files: store.gifFiles,
        fetcher: createRemoteFetcher({ allow: parseAllowList(['127.0.0.1']) }),
        dataDir,
        intervalMs: 0,
        nearDuplicates: 'skip',
        maxFruitless: 5
      })
      assert.deepEqual([report.complete, report.rejected, report.requests], [false, 5, 6])
      assert.deepEqual(dead.requests.map((r) => r.path), ['/waifu/many/sfw/hug', ...[0, 1, 2, 3, 4].map((i) => `/dead/${i}.gif`)])
    } finally {
      await store.close()
      await dead.close()
    }
  })

  it('reads at most the page size it asked for from an answer that lists more, and says so once', async () => {
    const dead = await startFakeGifApis({ pool: 1, dead: 500 })
    try {
      const res = await pull({}, 'nekos.best', '--category', 'hug', '--count', '3', '--interval-ms', '0', '--base-url', `${dead.url}/nekos`)
      assert.equal(res.code, 1)
      const lists = dead.requests.filter((r) => r.path.startsWith('/nekos/'))
      const downloads = dead.requests.filter((r) => r.path.startsWith('/dead/'))
      // 3 asked for in each answer, 50 fruitless URLs in a row: 17 answers, 50 downloads.
      assert.ok(lists.every((r) => r.path === '/nekos/hug?amount=3'))
      assert.deepEqual([lists.length, downloads.length], [17, 50])
      assert.deepEqual(downloads.slice(0, 4).map((r) => r.path), ['/dead/0.gif', '/dead/1.gif', '/dead/2.gif', '/dead/500.gif'])
      assert.equal(res.err.match(/listed 500 gifs in an answer to a request for 3: only the first 3 of each answer are read/g)?.length, 1, res.err)
      assert.match(res.out, /^Added 0 of 3 hug gif\(s\) from nekos\.best; skipped 0 duplicate\(s\), 0 near-duplicate\(s\), 50 refused; 67 request\(s\)\.$/)
    } finally {
      await dead.close()
    }
  })

  it('refuses a source answer of another shape, saying so', async () => {
    const res = await pull({}, 'nekos.best', '--category', 'hug', '--count', '1', '--interval-ms', '0', '--base-url', `${api.url}/otaku`)
    assert.equal(res.code, 1)
    assert.match(res.err, /answered HTTP 404|shape this command does not read/)
  })
})
