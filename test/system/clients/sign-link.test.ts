// signLink() of the TypeScript client against the link scheme as the lead wrote it down:
//     {PUBLIC_URL}/l/{linkId}/{expires}/{signature}{target}
//     signature = base64url, no padding, of HMAC-SHA256(UTF-8 of the link secret, "{linkId}/{expires}{target}")
// Each expected link is computed here from that text with node:crypto, apart from the
// client's own SHA-256 (written out so that it runs in browsers without crypto.subtle); the
// scheme's own ten-line signer is copied in verbatim and must agree too.
import assert from 'node:assert/strict'
import { createHash, createHmac, randomBytes } from 'node:crypto'
import { describe, it } from 'node:test'
import { base64url, customLinkTarget, hmacSha256, linkTarget, sha256, signLink } from '../../../clients/typescript/src/link.js'

const BASE = 'https://api.example.com'
const LINK = { id: 'AbCdEfGhIjKlMnOp', secret: 'ls_Q2xpZW50IHRlc3Qgc2VjcmV0IGZvciBzaWduTGluaw' }
/** The scheme's example target, character for character. */
const SPEC_TARGET = '/gen/welcome?username=Ana&avatar=https%3A%2F%2Fcdn.discordapp.com%2F...'

/** The scheme's JavaScript signer, as written in it. */
function specSignLink (base: string, { id, secret }: { id: string, secret: string }, target: string, expiresAt = 0): string {
  const sig = createHmac('sha256', secret).update(`${id}/${expiresAt}${target}`).digest('base64url')
  return `${base}/l/${id}/${expiresAt}/${sig}${target}`
}

/** The same, from the prose: the HMAC's key and message as UTF-8 bytes, base64 made url-safe and unpadded by hand. */
function fromProse (base: string, id: string, secret: string, target: string, expires: number): string {
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(`${id}/${expires}${target}`, 'utf8')).digest('base64')
  const signature = mac.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
  assert.equal(signature.length, 43)
  return `${base}/l/${id}/${expires}/${signature}${target}`
}

describe('signLink (clients/typescript)', () => {
  it('signs the scheme\'s example target as the scheme\'s own signer and its prose do, never expiring and expiring', () => {
    for (const expires of [0, 1_900_000_000]) {
      const link = signLink(BASE, LINK, SPEC_TARGET, expires)
      assert.equal(link, specSignLink(BASE, LINK, SPEC_TARGET, expires))
      assert.equal(link, fromProse(BASE, LINK.id, LINK.secret, SPEC_TARGET, expires))
      assert.match(link, new RegExp(`^https://api\\.example\\.com/l/AbCdEfGhIjKlMnOp/${expires}/[A-Za-z0-9_-]{43}/gen/welcome\\?username=Ana&avatar=https%3A%2F%2Fcdn\\.discordapp\\.com%2F\\.\\.\\.$`))
    }
  })

  it('takes a Date as whole seconds, and a base with a trailing slash as the same base', () => {
    const at = new Date(1_900_000_000_999)
    assert.equal(signLink(`${BASE}/`, LINK, SPEC_TARGET, at), specSignLink(BASE, LINK, SPEC_TARGET, 1_900_000_000))
  })

  it('signs a POST /gen/custom body as ?body= base64url of its JSON in UTF-8, without padding', () => {
    const body = { base: { width: 300, height: 100, color: '#223' }, texts: [{ text: 'Héllo 👋 <&>', x: 10, y: 40 }] }
    const target = customLinkTarget(body)
    assert.equal(target, `/gen/custom?body=${Buffer.from(JSON.stringify(body), 'utf8').toString('base64url')}`)
    assert.doesNotMatch(target, /=.*=|[+/=]$/)
    assert.equal(signLink(BASE, LINK, target, 0), fromProse(BASE, LINK.id, LINK.secret, target, 0))
  })

  it('builds GET targets with every value percent-encoded, so what is signed is what is sent', () => {
    const target = linkTarget('/gen/welcome', { username: 'Ana María #1', members: 'Member #42', avatar: 'https://cdn.discordapp.com/avatars/1/a.png?size=256', skip: undefined, level: 12 })
    assert.equal(target, '/gen/welcome?username=Ana%20Mar%C3%ADa%20%231&members=Member%20%2342&avatar=https%3A%2F%2Fcdn.discordapp.com%2Favatars%2F1%2Fa.png%3Fsize%3D256&level=12')
    assert.equal(new URL(signLink(BASE, LINK, target)).searchParams.get('username'), 'Ana María #1')
    assert.equal(linkTarget('/color/random'), '/color/random')
  })

  it('matches node:crypto on random secrets and targets across SHA-256\'s block boundaries (keys over 64 bytes hashed first)', () => {
    for (let i = 0; i < 300; i++) {
      const secret = i % 7 === 0 ? `ls_${'é'.repeat(i % 90)}` : `ls_${randomBytes(i % 100).toString('base64url')}`
      const target = `/gen/custom?body=${randomBytes(i).toString('base64url')}`
      const id = randomBytes(12).toString('base64url')
      const expires = i % 2 === 0 ? 0 : 1_700_000_000 + i
      assert.equal(signLink(BASE, { id, secret }, target, expires), fromProse(BASE, id, secret, target, expires), `case ${i}`)
    }
    for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1000]) {
      const data = randomBytes(length)
      assert.equal(Buffer.from(sha256(data)).toString('hex'), createHash('sha256').update(data).digest('hex'), `sha256 of ${length} bytes`)
      const key = randomBytes(length)
      assert.equal(Buffer.from(hmacSha256(key, data)).toString('hex'), createHmac('sha256', key).update(data).digest('hex'), `hmac with a ${length}-byte key`)
      assert.equal(base64url(data), data.toString('base64url'))
    }
  })

  it('refuses what the server would not read, saying what to send', () => {
    assert.throws(() => signLink(BASE, LINK, 'gen/welcome'), /must be a path and query starting with one "\/"/)
    assert.throws(() => signLink(BASE, LINK, '//gen/welcome'), /starting with one "\/"/)
    assert.throws(() => signLink(BASE, LINK, '/gen/welcome?username=Ana María'), /percent-encoded.*linkTarget/)
    assert.throws(() => signLink(BASE, LINK, '/color/info?hex=#00ff00'), /no spaces, "#"/)
    assert.throws(() => signLink(BASE, LINK, SPEC_TARGET, -1), /whole Unix seconds/)
    assert.throws(() => signLink(BASE, LINK, SPEC_TARGET, 1.5), /whole Unix seconds/)
    assert.throws(() => signLink(BASE, { id: LINK.id, secret: '' }, SPEC_TARGET), /link pair \{ id, secret \} from GET \/me/)
  })
})
