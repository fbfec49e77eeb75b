// locale=fr, ja, ar and pt-BR over real sockets to the built server (issue 40): every
// label of every template is drawn differently from English (the pixels of each label's
// region differ), Arabic's card mirrored; an unknown locale is a 400 listing the locales;
// a parameter the template does not read is named in X-Ignored-Parameters, which a
// browser script may read (CORS).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { request, type ServerProcess, startServerProcess } from '../../support/processes.js'
import { assertErrorEnvelope } from '../../support/envelope.js'

const KEY = 'template-locales-key-0123456789'

interface Region { name: string, left: number, top: number, width: number, height: number }
interface Case { template: string, fields: Record<string, string>, width: number, regions: Region[] }

/**
 * Each template's labels, drawn with no username (the name shown is "Someone" in the
 * locale), and the box each is drawn in, left to right; Arabic mirrors the card.
 */
const CASES: Case[] = [
  ...['welcome', 'goodbye'].map((template) => ({
    template,
    fields: { member_count: '12345' },
    width: 1024,
    regions: [
      { name: 'title', left: 420, top: 100, width: 560, height: 90 },
      { name: 'someone', left: 420, top: 205, width: 540, height: 70 },
      { name: 'member', left: 420, top: 295, width: 540, height: 50 }
    ]
  })),
  {
    template: 'rank',
    fields: { level: '12', rank: '3', xp: '8420', max_xp: '12000' },
    width: 934,
    regions: [
      { name: 'level and rank', left: 300, top: 45, width: 590, height: 50 },
      { name: 'someone', left: 270, top: 120, width: 300, height: 50 },
      { name: 'xp', left: 600, top: 135, width: 290, height: 35 }
    ]
  },
  {
    template: 'quote',
    fields: {},
    width: 1024,
    regions: [
      { name: 'author', left: 300, top: 270, width: 674, height: 60 }
    ]
  },
  {
    // Laid out 960 wide and drawn at 5/6 (profile.ts).
    template: 'profile',
    fields: { member_since: '2021-03-14', level: '12', rank: '3', xp: '8420', max_xp: '12000' },
    width: 800,
    regions: [
      { name: 'someone', left: 235, top: 175, width: 300, height: 45 },
      { name: 'member since', left: 520, top: 238, width: 247, height: 24 },
      { name: 'level and rank', left: 40, top: 288, width: 240, height: 28 },
      { name: 'xp to next level', left: 560, top: 290, width: 200, height: 26 }
    ]
  },
  {
    template: 'nowplaying',
    fields: { title: 'Clair de lune', elapsed: '95', duration: '302', next: 'Arabesque', queue: '4' },
    width: 1000,
    regions: [
      { name: 'now playing', left: 306, top: 44, width: 180, height: 28 },
      { name: 'up next and queue', left: 700, top: 44, width: 260, height: 28 }
    ]
  }
]

describe('templates in fr, ja, ar and pt-BR, over sockets to the built server', () => {
  let server: ServerProcess
  let dataDir: string
  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-locales-'))
    // What is tested is what is drawn, not how fast: generous deadlines, as the first
    // picture of each script loads its fonts and CI machines run other suites beside this one.
    server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: KEY, LOG_LEVEL: 'warn', CORS_ORIGINS: '*', RATE_LIMIT_MAX: '1000000', WORK_TIMEOUT_MS: '120000', REQUEST_TIMEOUT_MS: '120000' })
  })
  after(async () => {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  async function picture (template: string, fields: Record<string, string>): Promise<{ data: Buffer, width: number }> {
    const res = await request(`${server.url}/gen/${template}`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/json' }, body: JSON.stringify(fields) })
    assert.equal(res.status, 200, res.body.toString('utf8').slice(0, 300))
    assert.equal(res.headers['content-type'], 'image/png')
    const { data, info } = await sharp(res.body).removeAlpha().raw().toBuffer({ resolveWithObject: true })
    return { data, width: info.width }
  }

  /** Pixels of the region that differ by more than a little between two pictures of one width. */
  function differing (a: { data: Buffer, width: number }, b: { data: Buffer, width: number }, r: Region): number {
    let count = 0
    for (let y = r.top; y < r.top + r.height; y++) {
      for (let x = r.left; x < r.left + r.width; x++) {
        const i = (y * a.width + x) * 3
        if (Math.abs(a.data[i]! - b.data[i]!) + Math.abs(a.data[i + 1]! - b.data[i + 1]!) + Math.abs(a.data[i + 2]! - b.data[i + 2]!) > 60) count++
      }
    }
    return count
  }

  for (const c of CASES) {
    it(`${c.template}: every label differs from English in fr, ja, ar and pt-BR`, async () => {
      const english = await picture(c.template, { ...c.fields, locale: 'en-US' })
      // Absent, the locale is en-US.
      assert.ok((await picture(c.template, c.fields)).data.equals(english.data))
      for (const locale of ['fr', 'ja', 'ar', 'pt-BR']) {
        const drawn = await picture(c.template, { ...c.fields, locale })
        for (const region of c.regions) {
          const mirrored = locale === 'ar' ? { ...region, left: c.width - region.left - region.width } : region
          // Both regions of a mirrored card: English's label is gone from its place, Arabic's is in its own.
          const changed = Math.min(differing(english, drawn, region), differing(english, drawn, mirrored))
          assert.ok(changed > 150, `${c.template} ${locale}: the ${region.name} label looks as in English (${changed} pixels differ)`)
        }
      }
    })
  }

  /** The colour at x, y of a picture. */
  function pixel (p: { data: Buffer, width: number }, x: number, y: number): number[] {
    const i = (y * p.width + x) * 3
    return [...p.data.subarray(i, i + 3)]
  }
  const close = (a: number[], b: number[]): boolean => a.every((v, i) => Math.abs(v - b[i]!) <= 6)
  const apart = (a: number[], b: number[]): boolean => a.some((v, i) => Math.abs(v - b[i]!) > 40)

  it('profile and nowplaying in ar: the avatar or art on the right, the bar filling from the right', async () => {
    // At x in English, what Arabic draws at width - 1 - x, and something else at x.
    const mirrored = (english: { data: Buffer, width: number }, arabic: { data: Buffer, width: number }, x: number, y: number, what: string): void => {
      const m = english.width - 1 - x
      assert.ok(close(pixel(arabic, m, y), pixel(english, x, y)), `${what}: Arabic's ${pixel(arabic, m, y).join(',')} at ${m},${y}, English's ${pixel(english, x, y).join(',')} at ${x},${y}`)
      assert.ok(apart(pixel(arabic, x, y), pixel(english, x, y)), `${what}: Arabic draws English's ${pixel(english, x, y).join(',')} at ${x},${y} too`)
    }
    // The profile (800 wide): the avatar's disc left of its initial, the bar 70 % full (8420 of 12000) from 40 to 544.
    const profile = { username: 'ada', level: '12', xp: '8420', max_xp: '12000' }
    const [en, ar] = await Promise.all([picture('profile', { ...profile, locale: 'en-US' }), picture('profile', { ...profile, locale: 'ar' })])
    mirrored(en, ar, 65, 167, 'the avatar')
    mirrored(en, ar, 100, 332, 'the filled bar')
    mirrored(en, ar, 700, 332, 'the bar\'s track')
    // The now-playing card (1000 wide): the art (no album art: the note's square, a
    // diagonal gradient, the same along its middle column), the bar 31 % full from 306.
    const track = { title: 'Clair de lune', elapsed: '95', duration: '302' }
    const [enTrack, arTrack] = await Promise.all([picture('nowplaying', { ...track, locale: 'en-US' }), picture('nowplaying', { ...track, locale: 'ar' })])
    mirrored(enTrack, arTrack, 150, 50, 'the art')
    mirrored(enTrack, arTrack, 350, 223, 'the filled bar')
    mirrored(enTrack, arTrack, 800, 223, 'the bar\'s track')
  })

  it('quote: the quotation marks are the locale\'s (pt-BR writes “…” as English does)', async () => {
    const marks: Region = { name: 'quote', left: 300, top: 170, width: 400, height: 90 }
    const english = await picture('quote', { text: 'ok', locale: 'en-US' })
    for (const locale of ['fr', 'ja']) assert.ok(differing(english, await picture('quote', { text: 'ok', locale }), marks) > 100, locale)
    assert.equal(differing(english, await picture('quote', { text: 'ok', locale: 'pt-BR' }), marks), 0)
  })

  it('answers an unknown locale with 400 UNKNOWN_LOCALE naming the parameter and listing the locales', async () => {
    const res = await request(`${server.url}/gen/rank?locale=tlh`, { headers: { authorization: KEY } })
    const body = assertErrorEnvelope({ status: res.status, headers: res.headers, body: res.body }, 400, 'UNKNOWN_LOCALE')
    assert.match(body.message, /"locale".*\bid, da, de, en-GB, en-US\b.*\bzh-TW, ko, ar\b/)
  })

  it('names the parameters a template does not read in X-Ignored-Parameters, readable by a browser script', async () => {
    const res = await request(`${server.url}/gen/rank?usernme=Ana&status=online`, { headers: { authorization: KEY, origin: 'https://bot.example' } })
    assert.equal(res.status, 200)
    assert.equal(res.headers['x-ignored-parameters'], 'usernme')
    assert.match(String(res.headers['access-control-expose-headers']), /X-Ignored-Parameters/i)
  })
})
