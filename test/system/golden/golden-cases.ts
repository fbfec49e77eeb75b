// The golden-image cases: every template and a set of /gen/custom descriptions covering
// every element type and text option, rendered through the HTTP endpoint and compared
// with the PNGs stored in test/system/golden/reference/ (regenerate them with
// `node --import tsx scripts/update-golden.ts`, see docs/generation.md).
// Images named by URL come from a loopback server allowed through `remoteFetchAllow`
// (REMOTE_FETCH_ALLOW), drawn here from code so that they are the same on every run.
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp, { type Sharp } from 'sharp'
import { parseAllowList } from '../../../src/remote-fetch/address.js'
import { createTestApp, type TestApp } from '../../support/helpers.js'

export const GOLDEN_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'reference')

/**
 * Tolerance of the comparison. Skia inside @napi-rs/canvas draws the same bytes on
 * every run here; the slack absorbs anti-aliasing changes of a canvas upgrade while a
 * moved, resized or missing element, or one changed character, still fails.
 */
export const TOLERANCE = {
  /** Mean absolute difference over all channels of all pixels, on the 0..255 scale. */
  meanAbsDiff: 0.5,
  /** A pixel is bad when one of its channels differs by more than this. */
  pixelThreshold: 40,
  /** Largest fraction of bad pixels: 92 of a 1024×450 banner, where one changed digit is about 150. */
  maxBadFraction: 0.0002
}

export interface GoldenCase {
  name: string
  /** A path with a query string (GET) or a JSON body (POST). `{img}` is the image server's origin. */
  url: string
  body?: unknown
  /** The answer's content type: image/png unless said. */
  type?: string
}

/**
 * An animation checked by its frame count, its delays and one frame's pixels, stored as
 * test/system/golden/reference/animated/{name}.frame{frame}.png (scripts/update-golden.ts writes it too).
 */
export interface AnimatedGoldenCase extends GoldenCase {
  frame: number
  frames: number
  delays: number[]
}

/** The spinning avatar's frame delays, in ms (GIF keeps centiseconds): uneven, so a lost delay shows. */
export const SPINNER_DELAYS = [40, 80, 120, 60, 60, 60, 200, 40, 80, 120, 60, 100]

export const ANIMATED_GOLDEN_DIR = path.join(GOLDEN_DIR, 'animated')

export const ANIMATED_GOLDEN_CASES: readonly AnimatedGoldenCase[] = [
  // docs/generation.md, "Animated pictures": the avatar's frames and delays, the rest drawn over each.
  { name: 'welcome-animated', url: '/gen/welcome', type: 'image/gif', body: { username: 'Alice <:blob:111111111111111111>', avatar: '{img}/spinner.gif', members: 'Member #42', banner: 'space', output: 'gif' }, frame: 6, frames: SPINNER_DELAYS.length, delays: SPINNER_DELAYS }
]

const LONG_NAME = 'ゆうき🎉 The Extraordinarily Long Username of 世界一の猫 🚀🐱 Μαρία Ёжик'

export const GOLDEN_CASES: readonly GoldenCase[] = [
  { name: 'welcome-basic', url: '/gen/welcome', body: { username: 'Alice', avatar: '{img}/avatar.png', members: 'Member #42' } },
  { name: 'welcome-long-name', url: '/gen/welcome', body: { username: LONG_NAME, avatar: '{img}/avatar.png', members: 'You are our 1,234th member! 🎈 ようこそ' } },
  { name: 'welcome-no-avatar-query', url: `/gen/welcome?username=${encodeURIComponent('Ёжик 日本')}&members=Member%20%237&color_welcome=255,200,0&color_username=%2300ffcc&text=Hello%21` },
  { name: 'welcome-banner-icon', url: '/gen/welcome', body: { username: 'Bob', avatar: '{img}/avatar.png', banner: 'SPACE', icon: 'star', members: 'Member #2', font: 'Bebas Neue', background: '#102030' } },
  { name: 'goodbye-basic', url: '/gen/goodbye', body: { username: 'Zed 👋', avatar: '{img}/avatar.png', members: 'We are 41 now' } },
  // Hosted names (docs/generation.md, "Icon and banner names"): the sunset banner keeps its sun and sea clear of the text.
  { name: 'goodbye-sunset-neko', url: '/gen/goodbye', body: { username: 'Zed', members: 'We are 41 now', banner: 'sunset', icon: 'neko' } },
  { name: 'welcome-mountain-dragon', url: '/gen/welcome', body: { username: 'Kai', members: 'Member #7', banner: 'mountain', icon: 'dragon' } },
  // Scripts (docs/generation.md, "Scripts and emoji"): Arabic right to left, Hangul, Thai
  // (marks above and below their letters), a name mixing Latin, Hangul and emoji (❤️‍🔥 and
  // 🏳️‍🌈, which the canvas alone splits, as one emoji each), and a flag as the initial.
  { name: 'welcome-arabic', url: '/gen/welcome', body: { username: 'ليلى المصري', avatar: '{img}/avatar.png', members: 'العضو رقم 42' } },
  { name: 'welcome-korean', url: '/gen/welcome', body: { username: '김민준', avatar: '{img}/avatar.png', members: '멤버 #42' } },
  { name: 'welcome-thai', url: '/gen/welcome', body: { username: 'สมศักดิ์ ใจดี', avatar: '{img}/avatar.png', members: 'สมาชิกคนที่ 42' } },
  { name: 'welcome-mixed-scripts', url: '/gen/welcome', body: { username: 'Mina 민아 ❤️‍🔥🏳️‍🌈', avatar: '{img}/avatar.png', members: 'Member #42 🎉' } },
  { name: 'welcome-flag-initial', url: '/gen/welcome', body: { username: '🇯🇵 Taro', members: 'Member #42' } },
  // 8420 of 12000: both numbers in one unit.
  { name: 'rank-xp-units', url: '/gen/rank', body: { username: 'Ann', level: '7', rank: '3', xp: '8420', max_xp: '12000', banner: 'aurora' } },
  { name: 'rank-basic', url: '/gen/rank', body: { username: 'Ann 🌟 アン', avatar: '{img}/avatar.png', level: '12', rank: '3', xp: '450', max_xp: '1000' } },
  { name: 'rank-compact-colours', url: '/gen/rank', body: { username: LONG_NAME, level: '1234', rank: '15000', xp: '12500', max_xp: '20000', color_bar: 'orange', color_text: '200,220,255', background: '#2b2d31', font: 'Nunito' } },
  // Labels, numbers and dates in the request's locale (issue 40); Arabic mirrors the card.
  { name: 'welcome-locale-fr', url: '/gen/welcome', body: { username: 'Amélie', avatar: '{img}/avatar.png', member_count: '1234', locale: 'fr' } },
  { name: 'goodbye-locale-pt-br', url: '/gen/goodbye', body: { username: 'João', member_count: '41', locale: 'pt-br', banner: 'sunset' } },
  { name: 'rank-locale-ja', url: '/gen/rank', body: { username: 'ゆうき', avatar: '{img}/avatar.png', level: '12', rank: '3', xp: '8420', max_xp: '12000', status: 'online', locale: 'ja' } },
  { name: 'rank-locale-ar', url: '/gen/rank', body: { username: 'ليلى المصري', avatar: '{img}/avatar.png', level: '12', rank: '3', xp: '8420', max_xp: '12000', status: 'dnd', locale: 'ar' } },
  { name: 'welcome-locale-ar', url: '/gen/welcome', body: { username: 'ليلى المصري', avatar: '{img}/avatar.png', member_count: '42', icon: 'star', locale: 'ar' } },
  { name: 'quote-locale-ar', url: '/gen/quote', body: { username: 'ابن خلدون', avatar: '{img}/avatar.png', text: 'الإنسان مدني بالطبع', locale: 'ar' } },
  { name: 'quote-locale-ja', url: '/gen/quote', body: { text: '急がば回れ', locale: 'ja' } },
  { name: 'rank-status-streaming', url: '/gen/rank', body: { username: 'Ann', avatar: '{img}/avatar.png', level: '3', xp: '40', status: 'streaming' } },
  // Discord markup (docs/generation.md, "Discord markup"): custom emoji from the CDN (the image server), mentions as words.
  { name: 'welcome-discord-markup', url: '/gen/welcome', body: { username: 'Kai <:blob:111111111111111111>', avatar: '{img}/avatar.png', members: '<@80351110224678912> invited you <a:party:222222222222222222>', text: 'WELCOME <:blob:111111111111111111>' } },
  // A short quote: its author just below it, not at the foot of the card.
  { name: 'quote-short', url: '/gen/quote', body: { username: 'Grace Hopper', text: 'Ship it.' } },
  { name: 'quote-basic', url: '/gen/quote', body: { username: 'Ada Lovelace', avatar: '{img}/avatar.png', text: 'The Analytical Engine weaves algebraic patterns just as the Jacquard loom weaves flowers and leaves. 機械 🌸' } },
  {
    name: 'custom-shapes',
    url: '/gen/custom',
    body: {
      output: 'png',
      base: { type: 'bitmap', width: 480, height: 320, color: '#203040' },
      images: [
        { type: 'bitmap', x: 20, y: 20, width: 120, height: 70, color: 'tomato', round: 20 },
        { type: 'bitmap', x: 170, y: 20, width: 120, height: 70, color: '0, 200, 120', rotate: 30 },
        { type: 'bitmap', x: 320, y: 20, width: 120, height: 70, color: 'white', opacity: 0.4 },
        { type: 'circle', x: 20, y: 120, radius: 40, color: 'gold' },
        { type: 'circle', x: 110, y: 120, radius: 40, color: '255,0,255,128' },
        { type: 'triangle', x: 210, y: 120, width: 60, height: 60, cut: 'topleft', color: 'red' },
        { type: 'triangle', x: 280, y: 120, width: 60, height: 60, cut: 'topright', color: 'lime' },
        { type: 'triangle', x: 350, y: 120, width: 60, height: 60, cut: 'bottomleft', color: 'deepskyblue' },
        { type: 'triangle', x: 210, y: 200, width: 60, height: 60, cut: 'bottomright', color: 'yellow' },
        { type: 'triangle', x: 300, y: 200, width: 80, height: 80, cut: 'topleft', color: 'orange', rotate: 45, opacity: 5 },
        // Skipped: drawn, this would cover the whole picture in red.
        { type: 'bitmap', x: 0, y: 0, width: 480, height: 320, color: 'red', skip: true }
      ]
    }
  },
  {
    name: 'custom-url-images',
    url: '/gen/custom',
    body: {
      output: 'png',
      base: { url: '{img}/wide.png', width: 480, height: 300 },
      images: [
        // A round avatar: round = half the side.
        { url: '{img}/avatar.png', x: 20, y: 20, size: 120, round: 60 },
        // Width alone keeps the aspect ratio (320×160 → 200×100).
        { url: '{img}/wide.png', x: 160, y: 20, width: 200 },
        // maxwidth scales down the image's own size.
        { url: '{img}/avatar.png', x: 380, y: 20, maxwidth: 80 },
        { url: '{img}/avatar.jpg', type: 'circle', x: 20, y: 170, radius: 55 },
        { url: '{img}/avatar.png', type: 'triangle', x: 150, y: 170, width: 110, height: 110, cut: 'bottomleft' },
        { url: '{img}/avatar.png', x: 290, y: 170, size: 110, round: 15, rotate: -15, opacity: 0.7, filter: 'grayscale' },
        { url: '{img}/never-fetched.png', x: 0, y: 0, size: 300, skip: true }
      ]
    }
  },
  {
    name: 'custom-texts',
    url: '/gen/custom',
    body: {
      output: 'png',
      base: { width: 600, height: 420, color: '#f4f1ea' },
      texts: [
        { text: 'Left aligned, Noto Serif 28', x: 20, y: 16, font: 'Noto Serif', size: 28, color: '#222222' },
        { text: 'Middle', x: 300, y: 60, align: 'm', size: 30, color: 'navy', back: '255,215,0' },
        { text: 'Right', x: 580, y: 60, align: 'r', size: 30, color: 'darkred', underline: true },
        { text: 'A sentence long enough to wrap inside a 260 pixel box, three lines or so.', x: 20, y: 110, width: 260, size: 22, color: 'black', back: '200,230,255', line: 1.4 },
        { text: 'Clipped to 40 pixels of height: only the first lines show up here at all.', x: 320, y: 110, width: 260, height: 40, size: 22, color: 'black', back: '255,220,220' },
        { text: 'Outlined', x: 20, y: 250, size: 48, color: 'white', outlinecolor: 'black', outlinewidth: 3 },
        { text: 'Blurred', x: 300, y: 250, size: 48, color: 'yellow', outlinecolor: 'red', outlinewidth: 2, outlineblur: 8 },
        { text: 'Bold', x: 20, y: 330, size: 34, bold: true, color: '#333', font: 'Roboto' },
        { text: 'Italic', x: 130, y: 330, size: 34, italics: true, color: '#333', font: 'Roboto' },
        { text: 'Both underlined', x: 240, y: 330, size: 34, bold: true, italics: true, underline: true, color: '#333', font: 'Roboto' },
        { texts: ['two lines', 'given as texts'], x: 20, y: 376, size: 16, color: 'teal', font: 'Fira Code' },
        { text: 'Caveat ✍️ 手書き', x: 580, y: 376, align: 'r', size: 30, color: 'purple', font: 'caveat' },
        { text: 'skipped: must not appear', x: 0, y: 0, size: 80, color: 'red', skip: true }
      ]
    }
  },
  {
    name: 'custom-discord-markup',
    url: '/gen/custom',
    body: {
      output: 'png',
      base: { width: 600, height: 300, color: '#313338' },
      texts: [
        { text: 'Hello <:blob:111111111111111111> and <a:party:222222222222222222>!', x: 20, y: 16, size: 32, color: 'white' },
        { text: '<@80351110224678912> joined <#41771983423143937> as <@&41771983423143936> (<@!80351110224678912>)', x: 20, y: 70, size: 20, color: '#dbdee1' },
        // 404 at the CDN: drawn as its :name:.
        { text: 'Gone <:missing:333333333333333333> big <:blob:111111111111111111>', x: 20, y: 104, size: 48, color: '#f2f3f5', outlinewidth: 2, outlinecolor: 'black' },
        { text: 'Wrapped <:blob:111111111111111111> in a box of 260 pixels <a:party:222222222222222222> with its emoji', x: 20, y: 176, width: 260, size: 22, color: 'black', back: '200,230,255', underline: true },
        { text: 'centred <:blob:111111111111111111>', x: 450, y: 190, align: 'm', size: 26, color: 'gold' },
        { text: 'שלום <:blob:111111111111111111> עולם', x: 580, y: 240, align: 'r', size: 26, color: 'white' }
      ]
    }
  },
  {
    name: 'custom-dates-global',
    url: '/gen/custom',
    body: {
      output: 'png',
      base: { width: 500, height: 260, color: 'black' },
      global: { textSize: 26, textColor: '120, 255, 160', textFont: 'Roboto Mono', textOutlineWidth: 2, textOutlineColor: 'darkgreen', textAlign: 'm', textX: 250 },
      texts: [
        { unix: 1700000000, format: 'yyyy-MM-dd HH:mm:ss', y: 20 },
        // 1, not 0: `unix: 0` is the C# client's "no date" (docs/compatibility.md).
        { unix: 1, format: 'd MMMM yyyy, h:mm tt', y: 70 },
        { snowflake: '175928847299117063', format: 'MMM d, yy HH:mm', y: 120 },
        { snowflake: '175928847299117063', y: 170, color: 'white', size: 20, outlinewidth: 0 },
        { text: 'left override', y: 215, x: 10, align: 'l', font: 'Sans Serif' }
      ]
    }
  }
]

export interface GoldenFixture {
  app: TestApp
  /** The image server's origin, what `{img}` stands for. */
  origin: string
  render (c: GoldenCase): Promise<Buffer>
  close (): Promise<void>
}

/**
 * A custom emoji: a disc of `color` with two dark eyes on a transparent square, `frames`
 * frames stacked (an animated GIF; the later frames' eyes move right).
 */
function emoji (side: number, color: readonly [number, number, number], frames = 1): Sharp {
  const data = Buffer.alloc(side * side * frames * 4)
  for (let f = 0; f < frames; f++) {
    for (let y = 0; y < side; y++) {
      for (let x = 0; x < side; x++) {
        const i = ((f * side + y) * side + x) * 4
        const r = side / 2
        if ((x - r + 0.5) ** 2 + (y - r + 0.5) ** 2 > r * r) continue
        const eye = Math.abs(y - side * 0.38) < side * 0.1 && (Math.abs(x - side * (0.33 + f * 0.06)) < side * 0.06 || Math.abs(x - side * (0.67 + f * 0.06)) < side * 0.06)
        data[i] = eye ? 30 : color[0]; data[i + 1] = eye ? 30 : color[1]; data[i + 2] = eye ? 30 : color[2]; data[i + 3] = 255
      }
    }
  }
  return sharp(data, { raw: { width: side, height: side * frames, channels: 4, ...(frames > 1 ? { pageHeight: side } : {}) } })
}

/** Deterministic test pictures: quadrants and a diagonal band make crops, scaling and rounding visible. */
async function pictures (): Promise<Record<string, { type: string, bytes: Buffer }>> {
  const raw = (w: number, h: number) => {
    const data = Buffer.alloc(w * h * 3)
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = (y * w + x) * 3
        const band = Math.abs(x / w - y / h) < 0.08
        const left = x < w / 2
        const top = y < h / 2
        data[i] = band ? 255 : top ? (left ? 230 : 40) : (left ? 30 : 250)
        data[i + 1] = band ? 255 : top ? (left ? 60 : 170) : (left ? 200 : 200)
        data[i + 2] = band ? 255 : top ? (left ? 60 : 240) : (left ? 90 : 40)
      }
    }
    return sharp(data, { raw: { width: w, height: h, channels: 3 } })
  }
  const spinner = Buffer.alloc(96 * 96 * 4 * SPINNER_DELAYS.length)
  SPINNER_DELAYS.forEach((_, f) => {
    for (let y = 0; y < 96; y++) {
      for (let x = 0; x < 96; x++) {
        const i = ((f * 96 + y) * 96 + x) * 4
        // A quarter disc of colour turning by a twelfth of a turn a frame over grey.
        const turn = ((Math.atan2(y - 48, x - 48) / (2 * Math.PI) + 1) * 12 + f) % 12
        const lit = turn < 3
        spinner[i] = lit ? 240 : 90; spinner[i + 1] = lit ? 60 + f * 15 : 90; spinner[i + 2] = lit ? 80 : 110; spinner[i + 3] = 255
      }
    }
  })
  return {
    '/spinner.gif': { type: 'image/gif', bytes: await sharp(spinner, { raw: { width: 96, height: 96 * SPINNER_DELAYS.length, channels: 4, pageHeight: 96 } }).gif({ delay: SPINNER_DELAYS, loop: 0 }).toBuffer() },
    // Custom emoji, as Discord's CDN serves them (/emojis/{id}.png, .gif when animated).
    '/emojis/111111111111111111.png': { type: 'image/png', bytes: await emoji(96, [255, 200, 40]).png().toBuffer() },
    '/emojis/222222222222222222.gif': { type: 'image/gif', bytes: await emoji(64, [90, 200, 255], 2).gif().toBuffer() },
    '/avatar.png': { type: 'image/png', bytes: await raw(128, 128).png().toBuffer() },
    '/avatar.jpg': { type: 'image/jpeg', bytes: await raw(128, 128).jpeg({ quality: 90 }).toBuffer() },
    '/wide.png': { type: 'image/png', bytes: await raw(320, 160).png().toBuffer() }
  }
}

function substitute (value: unknown, origin: string): unknown {
  if (typeof value === 'string') return value.replaceAll('{img}', origin)
  if (Array.isArray(value)) return value.map((v) => substitute(v, origin))
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, origin)]))
  return value
}

/** A loopback image server and an app allowed to fetch from it. */
export async function startGoldenFixture (): Promise<GoldenFixture> {
  const files = await pictures()
  const server = http.createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://x').pathname]
    if (!file) { res.writeHead(404); res.end(); return }
    res.writeHead(200, { 'content-type': file.type }); res.end(file.bytes)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const app = await createTestApp({ config: { remoteFetchAllow: parseAllowList(['127.0.0.1']), discordCdnUrl: origin } })
  return {
    app,
    origin,
    async render (c) {
      const res = await app.app.inject({
        method: c.body === undefined ? 'GET' : 'POST',
        url: c.url,
        headers: app.auth,
        ...(c.body === undefined ? {} : { payload: substitute(c.body, origin) as object })
      })
      if (res.statusCode !== 200 || res.headers['content-type'] !== (c.type ?? 'image/png')) {
        throw new Error(`${c.name}: ${res.statusCode} ${String(res.headers['content-type'])} ${res.body.slice(0, 300)}`)
      }
      return res.rawPayload
    },
    async close () {
      await app.close()
      server.closeAllConnections()
      server.close()
    }
  }
}

export interface Comparison {
  ok: boolean
  meanAbsDiff: number
  badFraction: number
  width: number
  height: number
  /** Why it failed, for the assertion message. */
  reason?: string
  /** A picture of the differences: bad pixels red over a faded reference. */
  diff?: () => Promise<Buffer>
}

async function rgba (png: Buffer): Promise<{ data: Buffer, width: number, height: number }> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height }
}

/** Compares two PNGs pixel by pixel within `tolerance`. */
export async function compareImages (actual: Buffer, expected: Buffer, tolerance = TOLERANCE): Promise<Comparison> {
  const a = await rgba(actual)
  const e = await rgba(expected)
  if (a.width !== e.width || a.height !== e.height) {
    return { ok: false, meanAbsDiff: 255, badFraction: 1, width: a.width, height: a.height, reason: `size ${a.width}×${a.height}, expected ${e.width}×${e.height}` }
  }
  const pixels = a.width * a.height
  const bad = new Uint8Array(pixels)
  let total = 0
  let badCount = 0
  for (let p = 0; p < pixels; p++) {
    let worst = 0
    for (let c = 0; c < 4; c++) {
      const d = Math.abs(a.data[p * 4 + c]! - e.data[p * 4 + c]!)
      total += d
      if (d > worst) worst = d
    }
    if (worst > tolerance.pixelThreshold) { bad[p] = 1; badCount++ }
  }
  const meanAbsDiff = total / (pixels * 4)
  const badFraction = badCount / pixels
  const ok = meanAbsDiff <= tolerance.meanAbsDiff && badFraction <= tolerance.maxBadFraction
  return {
    ok,
    meanAbsDiff,
    badFraction,
    width: a.width,
    height: a.height,
    ...(ok ? {} : { reason: `mean absolute difference ${meanAbsDiff.toFixed(3)} (limit ${tolerance.meanAbsDiff}), ${(badFraction * 100).toFixed(3)}% of pixels off by more than ${tolerance.pixelThreshold} (limit ${(tolerance.maxBadFraction * 100).toFixed(3)}%)` }),
    async diff () {
      const out = Buffer.alloc(pixels * 3)
      for (let p = 0; p < pixels; p++) {
        if (bad[p]) { out[p * 3] = 255; out[p * 3 + 1] = 0; out[p * 3 + 2] = 0; continue }
        const grey = (e.data[p * 4]! + e.data[p * 4 + 1]! + e.data[p * 4 + 2]!) / 3
        out[p * 3] = out[p * 3 + 1] = out[p * 3 + 2] = Math.round(160 + grey / 4)
      }
      return await sharp(out, { raw: { width: a.width, height: a.height, channels: 3 } }).png().toBuffer()
    }
  }
}

/** Writes the actual picture and the diff next to each other in a fresh temp dir; returns the dir. */
export async function writeFailure (name: string, actual: Buffer, comparison: Comparison): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `golden-${name}-`))
  fs.writeFileSync(path.join(dir, `${name}.actual.png`), actual)
  if (comparison.diff) fs.writeFileSync(path.join(dir, `${name}.diff.png`), await comparison.diff())
  return dir
}

/** One frame of an animated answer, as a PNG. */
export async function frameOf (animation: Buffer, frame: number): Promise<Buffer> {
  return await sharp(animation, { page: frame }).png().toBuffer()
}

/** How references are stored: re-encoded losslessly at the highest compression, so the files stay small. */
export async function toReference (png: Buffer): Promise<Buffer> {
  return await sharp(png).png({ compressionLevel: 9, adaptiveFiltering: true }).toBuffer()
}
