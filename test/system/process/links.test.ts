// Signed links (docs/links.md) against the built server over real sockets: minted and
// offline-signed links served with no header, the same bytes as the keyed request; a
// changed character refused before any work; expiry, revocation and the roll; the
// signers of docs/links.md, extracted from the page and run (Node and python3); and the
// hostile side: a 10 KB link, bad base64, a body that is not JSON, targets that are not
// linkable.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { createHmac } from 'node:crypto'
import { tempDir } from '../../support/helpers.js'
import { request, type ServerProcess, type SimpleResponse, startServerProcess, until } from '../../support/processes.js'
import { lastLine, runBuiltCli } from '../../support/cli.js'
import { assertErrorEnvelope } from '../../support/envelope.js'
import { exchange } from '../../support/raw-http.js'

const OPERATOR = 'links-operator-key-0123456789'
const KEY_CACHE_TTL_MS = 1000
const dirs: string[] = []
let server: ServerProcess
let dataDir: string
/** A key made for a bot, with the CLI, and its link id and secret from GET /me. */
let bot: { key: string, links: { id: string, secret: string } }

const keyed = (key: string) => ({ authorization: key })

async function me (key: string): Promise<any> {
  const res = await request(`${server.url}/me`, { headers: keyed(key) })
  assert.equal(res.status, 200, res.body.toString())
  return JSON.parse(res.body.toString())
}

/** Pictures drawn for a key so far: the generation group's usage (GET /me writes what is pending first). */
async function drawn (key: string): Promise<{ requests: number, units: number }> {
  return (await me(key)).usage.today.generation ?? { requests: 0, units: 0 }
}

async function mint (key: string, body: unknown): Promise<SimpleResponse & { json: any }> {
  const res = await request(`${server.url}/links`, { method: 'POST', headers: { ...keyed(key), 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { ...res, json: JSON.parse(res.body.toString()) }
}

/** The scheme of docs/links.md, written here independently of the server's code. */
function sign (links: { id: string, secret: string }, target: string, expires = 0): string {
  const sig = createHmac('sha256', links.secret).update(`${links.id}/${expires}${target}`).digest('base64url')
  return `${server.url}/l/${links.id}/${expires}/${sig}${target}`
}

/** The path and query of a link URL, for the raw-socket requests. */
const pathOf = (url: string): string => url.slice(server.url.length)

before(async () => {
  dataDir = tempDir('uma-links-')
  dirs.push(dataDir)
  const made = runBuiltCli(dataDir, ['keys', 'create', '--name', 'bot', '--rate', '1000/1m'], { GIF_STARTER_CATALOG: 'false' })
  assert.equal(made.code, 0, made.err)
  server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: OPERATOR, GIF_STARTER_CATALOG: 'false', KEY_CACHE_TTL_MS: String(KEY_CACHE_TTL_MS) })
  const key = lastLine(made.out)
  bot = { key, links: (await me(key)).links }
})
after(async () => {
  await server?.stop()
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

describe('minted links', () => {
  it('serve the keyed request\'s picture, the same bytes, with no header, cacheable for good', async () => {
    const target = '/gen/welcome?username=Ana&members=Member%20%2342'
    const minted = await mint(bot.key, { path: target })
    assert.equal(minted.status, 200, minted.body.toString())
    assert.equal(minted.json.expires_at, null)
    assert.equal(minted.json.url, sign(bot.links, target), 'the minted link is the offline form of docs/links.md')
    assert.ok(minted.json.url.length <= 512)

    const keyedAnswer = await request(`${server.url}${target}`, { headers: keyed(bot.key) })
    const before = await drawn(bot.key)
    const res = await request(minted.json.url)
    assert.equal(res.status, 200, res.body.toString())
    assert.equal(res.headers['content-type'], 'image/png')
    assert.equal(res.headers['content-length'], String(res.body.length))
    assert.ok(res.body.equals(keyedAnswer.body), 'the same bytes as the keyed request')
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable')
    // The mint drew the picture; the link's replay is served from the result cache
    // (docs/result-cache.md), with the picture's ETag (its content address).
    assert.match(String(res.headers.etag), /^"[0-9a-f]{64}"$/)
    assert.equal(res.headers.etag, keyedAnswer.headers.etag)
    assert.equal(res.headers['x-cache'], 'hit')
    // Counted once, to the key that made the link, as the keyed request it replays: 1 unit for a picture from the cache.
    assert.deepEqual(await drawn(bot.key), { requests: before.requests + 1, units: before.units + 1 })
    assert.equal(res.headers['x-ratelimit-limit'], '1000')
    assert.match(String(res.headers.ratelimit), /^"key";r=\d+;t=\d+$/)

    const again = await request(minted.json.url, { headers: { 'if-none-match': String(res.headers.etag) } })
    assert.equal(again.status, 304)
    assert.equal(again.body.length, 0)
    assert.equal(again.headers.etag, res.headers.etag)

    // HEAD: the headers and the exact length, no body (read off the socket).
    const { answers } = await exchange(server.port, [`HEAD ${pathOf(minted.json.url)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`], { keepOpen: true })
    assert.equal(answers[0]!.status, 200)
    assert.equal(answers[0]!.headers['content-length'], String(res.body.length))
    assert.equal(answers[0]!.bytes.length, 0)
  })

  it('refuse one changed character with 403 before anything is drawn', async () => {
    const minted = await mint(bot.key, { path: '/gen/welcome?username=Bo' })
    assert.equal(minted.status, 200)
    const before = await drawn(bot.key)
    const url: string = minted.json.url
    const at = url.indexOf('/l/') + 30 // inside the signature
    const changed = [
      url.slice(0, at) + (url[at] === 'A' ? 'B' : 'A') + url.slice(at + 1), // the signature
      url.replace('username=Bo', 'username=Bp'), // a parameter
      url.replace('username=Bo', 'username=Bo&output=jpg'), // a parameter added
      url.replace('/0/', '/1/') // the expiry
    ]
    for (const link of changed) {
      const res = await request(link)
      assertErrorEnvelope({ ...res, body: res.body.toString() }, 403, 'LINK_INVALID')
      assert.equal(res.headers['cache-control'], 'no-store')
    }
    assert.deepEqual(await drawn(bot.key), before, 'nothing was drawn or counted')
  })

  it('answer 410 once expired, and say so in Cache-Control before', async () => {
    const minted = await mint(bot.key, { path: '/gen/welcome?username=Cy', expires_in: 3600 })
    assert.equal(minted.status, 200)
    const expires = Date.parse(minted.json.expires_at) / 1000
    assert.ok(Math.abs(expires - (Date.now() / 1000 + 3600)) < 60)
    const res = await request(minted.json.url)
    assert.equal(res.status, 200)
    const maxAge = Number(/^public, max-age=(\d+)$/.exec(String(res.headers['cache-control']))![1])
    assert.ok(maxAge > 3500 && maxAge <= 3600, `max-age ${maxAge}`)
    // The clock is not moved: a link signed offline with an expiry in the past.
    const before = await drawn(bot.key)
    const past = await request(sign(bot.links, '/gen/welcome?username=Cy', Math.floor(Date.now() / 1000) - 5))
    assertErrorEnvelope({ ...past, body: past.body.toString() }, 410, 'LINK_EXPIRED')
    assert.deepEqual(await drawn(bot.key), before)
  })

  it('refuse at minting what the keyed request would refuse, with the same error', async () => {
    const cases: Array<[unknown, number, string]> = [
      [{ path: '/gen/nope?username=x' }, 404, 'TEMPLATE_NOT_FOUND'],
      [{ path: '/gen/welcome?background=notacolour' }, 400, 'INVALID_COLOR'],
      [{ path: '/gen/welcome?avatar=http%3A%2F%2F127.0.0.1%3A1%2Fa.png' }, 400, 'REMOTE_FETCH_REFUSED']
    ]
    for (const [body, status, code] of cases) {
      const res = await mint(bot.key, body)
      assertErrorEnvelope({ ...res, body: res.body.toString() }, status, code)
      const path = (body as { path: string }).path
      const direct = await request(`${server.url}${path}`, { headers: keyed(bot.key) })
      assert.equal(direct.status, status)
      assert.equal(JSON.parse(direct.body.toString()).error, code)
    }
  })

  it('carry a /gen/custom body, and keep a request too long for 512 characters server-side', async () => {
    const body = { base: { width: 300, height: 80, color: '#223344' }, output: 'webp', texts: [{ text: 'x'.repeat(600), x: 4, y: 4, size: 12 }] }
    const minted = await mint(bot.key, { path: '/gen/custom', body })
    assert.equal(minted.status, 200, minted.body.toString())
    assert.ok(minted.json.url.length <= 512)
    assert.match(minted.json.url, /\/m\/[A-Za-z0-9_-]{22}$/)
    assert.equal((await mint(bot.key, { path: '/gen/custom', body })).json.url, minted.json.url, 'the same request minted twice: the same link')
    const res = await request(minted.json.url)
    assert.equal(res.status, 200, res.body.toString())
    assert.equal(res.headers['content-type'], 'image/webp')
    const direct = await request(`${server.url}/gen/custom`, { method: 'POST', headers: keyed(bot.key), body: JSON.stringify(body) })
    assert.ok(res.body.equals(direct.body))
    // Another key cannot serve this key's stored request under its own signature.
    const other = (await me(OPERATOR)).links
    const stolen = await request(sign(other, new URL(minted.json.url).pathname.replace(/^.*(\/m\/)/, '$1')))
    assertErrorEnvelope({ ...stolen, body: stolen.body.toString() }, 404, 'LINK_NOT_FOUND')
  })
})

describe('links signed offline with the recipes of docs/links.md', () => {
  const page = fs.readFileSync('docs/links.md', 'utf8')
  /** The fenced block of `language` right after the "the signer" marker. */
  function signerBlock (language: string): string {
    const re = new RegExp(`<!-- the signer: [^>]*-->\\n\`\`\`${language}\\n([\\s\\S]*?)\\n\`\`\`\\n`)
    const m = re.exec(page)
    assert.ok(m, `docs/links.md has a ${language} signer block`)
    return m[1]!
  }
  const target = `/gen/welcome?${new URLSearchParams({ username: 'Dee', members: 'Member #7', background: '#335577' })}`
  const customBody = { base: { width: 120, height: 40, color: '#402040' }, output: 'png' }

  function runJs (links: object, t: string, expires: number, body?: object): string {
    const dir = tempDir('uma-links-js-')
    dirs.push(dir)
    fs.writeFileSync(path.join(dir, 'sign-link.mjs'), signerBlock('js'))
    fs.writeFileSync(path.join(dir, 'run.mjs'), `import { signLink, withBody } from './sign-link.mjs'
const [base, links, target, expires, body] = JSON.parse(process.argv[2])
console.log(signLink(base, links, body === null ? target : withBody(target, body), expires))
`)
    return execFileSync(process.execPath, [path.join(dir, 'run.mjs'), JSON.stringify([server.url, links, t, expires, body ?? null])], { encoding: 'utf8' }).trim()
  }

  function runPython (links: object, t: string, expires: number, body?: object): string {
    const dir = tempDir('uma-links-py-')
    dirs.push(dir)
    fs.writeFileSync(path.join(dir, 'sign_link.py'), signerBlock('python'))
    const script = `import json, sys
sys.path.insert(0, ${JSON.stringify(dir)})
from sign_link import sign_link, with_body
base, links, target, expires, body = json.loads(sys.argv[1])
print(sign_link(base, links, target if body is None else with_body(target, body), expires))
`
    return execFileSync('python3', ['-c', script, JSON.stringify([server.url, links, t, expires, body ?? null])], { encoding: 'utf8' }).trim()
  }

  for (const [name, run] of [['JavaScript', runJs], ['Python', runPython]] as const) {
    it(`serves a link made by the ${name} recipe, and refuses it once a parameter changes`, async () => {
      const link = run(bot.links, target, 0)
      assert.equal(link, sign(bot.links, target))
      const res = await request(link)
      assert.equal(res.status, 200, res.body.toString())
      assert.equal(res.headers['content-type'], 'image/png')
      const direct = await request(`${server.url}${target}`, { headers: keyed(bot.key) })
      assert.ok(res.body.equals(direct.body))
      const changed = await request(link.replace('username=Dee', 'username=Eve'))
      assertErrorEnvelope({ ...changed, body: changed.body.toString() }, 403, 'LINK_INVALID')

      // A JSON body (/gen/custom), and an expiring link.
      const expires = Math.floor(Date.now() / 1000) + 600
      const custom = run(bot.links, '/gen/custom', expires, customBody)
      const drawnCustom = await request(custom)
      assert.equal(drawnCustom.status, 200, drawnCustom.body.toString())
      assert.equal(drawnCustom.headers['content-type'], 'image/png')
      assert.match(String(drawnCustom.headers['cache-control']), /^public, max-age=\d+$/)
      const directCustom = await request(`${server.url}/gen/custom`, { method: 'POST', headers: keyed(bot.key), body: JSON.stringify(customBody) })
      assert.ok(drawnCustom.body.equals(directCustom.body))
    })
  }
})

describe('hostile links', () => {
  it('answer a clear 4xx envelope for every malformed link', async () => {
    const valid = sign(bot.links, '/gen/welcome?username=Ana')
    const cases: Array<[string, number, string]> = [
      [sign(bot.links, `/gen/welcome?username=${'x'.repeat(10_000)}`), 414, 'LINK_TOO_LONG'],
      [`${server.url}/l/abc`, 400, 'LINK_MALFORMED'],
      [`${server.url}/l/${bot.links.id}/soon/${'A'.repeat(43)}/gen/welcome`, 400, 'LINK_MALFORMED'],
      [valid.replace('/l/', '/l/x'), 400, 'LINK_MALFORMED'],
      [sign(bot.links, '/gen/custom?body=not.base64'), 400, 'LINK_BODY_INVALID'],
      [sign(bot.links, '/gen/custom?body=A'), 400, 'LINK_BODY_INVALID'],
      [sign(bot.links, '/gen/custom?body=AB='), 400, 'LINK_BODY_INVALID'],
      [sign(bot.links, `/gen/custom?body=${Buffer.from('{"base": ').toString('base64url')}`), 400, 'LINK_BODY_INVALID'],
      [sign(bot.links, `/gen/custom?body=${Buffer.from([0xff, 0xfe, 0x7b]).toString('base64url')}`), 400, 'LINK_BODY_INVALID'],
      [sign(bot.links, '/me'), 400, 'LINK_NOT_LINKABLE'],
      [sign(bot.links, '/links'), 400, 'LINK_NOT_LINKABLE'],
      [sign(bot.links, pathOf(valid)), 400, 'LINK_NOT_LINKABLE'],
      [sign(bot.links, '/sfw/gif/hug'), 400, 'LINK_NOT_LINKABLE'],
      [sign(bot.links, '/healthz'), 400, 'LINK_NOT_LINKABLE'],
      [sign(bot.links, '/no/such/path'), 400, 'LINK_NOT_LINKABLE'],
      [sign(bot.links, '//gen/welcome'), 400, 'LINK_MALFORMED'],
      [sign({ id: 'AAAAAAAAAAAAAAAA', secret: bot.links.secret }, '/gen/welcome'), 403, 'LINK_INVALID']
    ]
    const before = await drawn(bot.key)
    for (const [link, status, code] of cases) {
      const { answers } = await exchange(server.port, [`GET ${pathOf(link)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`], { keepOpen: true })
      assertErrorEnvelope({ status: answers[0]!.status, headers: answers[0]!.headers, body: answers[0]!.body }, status, code)
    }
    assert.deepEqual(await drawn(bot.key), before, 'no picture drawn for any of them')
  })

  it('refuses to mint what cannot be linked, or a path that is not one', async () => {
    for (const [path, code] of [['/me', 'LINK_NOT_LINKABLE'], ['/links', 'LINK_NOT_LINKABLE'], ['/sfw/gif/hug', 'LINK_NOT_LINKABLE'], [pathOf(sign(bot.links, '/gen/welcome')), 'LINK_NOT_LINKABLE'], ['https://example.com/gen/welcome', 'VALIDATION'], ['/gen/welcome#x', 'LINK_MALFORMED']] as const) {
      const res = await mint(bot.key, { path })
      assertErrorEnvelope({ ...res, body: res.body.toString() }, 400, code)
    }
    for (const body of [{ path: '/gen/welcome', expires_in: 0 }, { path: '/gen/welcome', expires_in: 'soon' }, {}]) {
      const res = await mint(bot.key, body)
      assertErrorEnvelope({ ...res, body: res.body.toString() }, 400, 'VALIDATION')
    }
    const noKey = await request(`${server.url}/links`, { method: 'POST', body: JSON.stringify({ path: '/gen/welcome' }) })
    assertErrorEnvelope({ ...noKey, body: noKey.body.toString() }, 401, 'AUTH_MISSING')
  })

  it('never takes the replay header from outside: a keyed route still wants a key', async () => {
    const res = await request(`${server.url}/gen/welcome`, { headers: { 'x-internal-replay': `${'A'.repeat(43)}.${'0'.repeat(64)}` } })
    assertErrorEnvelope({ ...res, body: res.body.toString() }, 401, 'AUTH_MISSING')
  })
})

describe('the secret and the key', () => {
  it('a roll ends the links signed with the old secret; the new one signs', async () => {
    const made = runBuiltCli(dataDir, ['keys', 'create', '--name', 'roller'])
    assert.equal(made.code, 0, made.err)
    const key = lastLine(made.out)
    const old = (await me(key)).links
    const link = sign(old, '/gen/welcome?username=Roll')
    assert.equal((await request(link)).status, 200)
    const rolled = await request(`${server.url}/me/links/roll`, { method: 'POST', headers: keyed(key) })
    assert.equal(rolled.status, 200)
    const fresh = JSON.parse(rolled.body.toString()).links
    assert.equal(fresh.id, old.id)
    assert.notEqual(fresh.secret, old.secret)
    assert.deepEqual((await me(key)).links, fresh)
    const refused = await request(link)
    assertErrorEnvelope({ ...refused, body: refused.body.toString() }, 403, 'LINK_INVALID')
    assert.equal((await request(sign(fresh, '/gen/welcome?username=Roll'))).status, 200)
  })

  it('a key revoked with the CLI has its links refused within KEY_CACHE_TTL_MS + 1 s', async () => {
    const made = runBuiltCli(dataDir, ['keys', 'create', '--name', 'revoked-bot', '--rate', '100000/1m'])
    const key = lastLine(made.out)
    const link = sign((await me(key)).links, '/gen/welcome?username=Gone')
    assert.equal((await request(link)).status, 200)
    const revoke = runBuiltCli(dataDir, ['keys', 'revoke', 'revoked-bot'])
    assert.equal(revoke.code, 0, revoke.err)
    const revokedAt = Date.now()
    // No request sent later than the bound is served. (Sent, not answered: a loaded
    // machine may take long to draw the pictures it still serves before the bound.)
    let last: SimpleResponse | undefined
    let lastServedSentAt = revokedAt
    await until(async () => {
      const sentAt = Date.now()
      last = await request(link)
      if (last.status === 200) lastServedSentAt = sentAt
      return last.status !== 200
    }, 30_000, 'the link refused')
    assert.ok(lastServedSentAt - revokedAt <= KEY_CACHE_TTL_MS + 1000, `a request sent ${lastServedSentAt - revokedAt} ms after the revocation was served`)
    assertErrorEnvelope({ ...last!, body: last!.body.toString() }, 403, 'LINK_KEY_REFUSED')
  })

  it('applies the key\'s rate limit to its links, and passes its 429 and Retry-After on', async () => {
    const made = runBuiltCli(dataDir, ['keys', 'create', '--name', 'limited', '--rate', '6/1m'])
    const key = lastLine(made.out)
    const links = (await me(key)).links
    const first = await request(sign(links, '/gen/welcome?username=One'))
    assert.equal(first.status, 200)
    assert.equal(first.headers['x-ratelimit-limit'], '6')
    const second = await request(sign(links, '/gen/welcome?username=Two'))
    assertErrorEnvelope({ ...second, body: second.body.toString() }, 429, 'RATE_LIMITED')
    assert.match(String(second.headers['retry-after']), /^\d+$/)
    assert.equal(second.headers['x-ratelimit-remaining'], '0')
  })

  it('keeps the server key in DATA_DIR/link-signing-key, readable by its owner only, and never in the database', () => {
    const file = path.join(dataDir, 'link-signing-key')
    assert.equal(fs.statSync(file).mode & 0o777, 0o600)
    const serverKey = fs.readFileSync(file, 'utf8').trim()
    assert.ok(serverKey.length >= 32)
    const database = fs.readFileSync(path.join(dataDir, 'utility-media.sqlite'))
    assert.equal(database.indexOf(serverKey), -1)
  })
})
