// The public gif APIs `gifs pull` can fill a category from: how to ask each for gifs of
// a category, how to read its answer, which of our types it offers under which name,
// and how fast it may be asked. Shapes and limits as their documentation and clients
// showed them in November 2026 (docs/gif-packs.md, "Sources", says what is unsure).
import type { Attribution } from './catalog-writer.js'
import type { GifType } from './types.js'

export interface SourceRequest {
  url: string
  method: 'GET' | 'POST'
  json?: unknown
  /** Gifs this request asks for: at most this many of its answer are read. */
  pageSize: number
}

export interface SourceGif {
  url: string
  attribution: Attribution
}

/** What `parse` read of an answer. */
export interface SourcePage {
  /** The first `max` gifs of the answer, checked. */
  gifs: SourceGif[]
  /** How many the answer listed: more than `gifs` when it listed more than was asked for. */
  listed: number
}

export interface GifSource {
  /** The name operators type: gifs pull NAME. */
  name: string
  /**
   * The setting that holds the public API's base URL (--base-url replaces it for one run);
   * its default is in the table of settings (src/config/settings.ts), read as config.gifPull.baseUrls[setting].
   */
  setting: string
  /** The pace the source publishes (or, where it publishes none, one request a second). */
  defaultIntervalMs: number
  /** Gifs one request can answer at most. */
  maxPerRequest: number
  /** Our types the source offers, with its own name for each. */
  categories: Partial<Record<GifType, string>>
  /** The request for up to `want` gifs of the source's category `theirs`. */
  request (base: string, theirs: string, want: number): SourceRequest
  /**
   * The first `max` gifs of an answer (the rest are neither read nor checked); throws an
   * Error saying what is wrong with its shape.
   */
  parse (body: unknown, max: number): SourcePage
}

const same = <T extends GifType>(...types: T[]): Partial<Record<GifType, string>> => Object.fromEntries(types.map((t) => [t, t]))

function object (body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('the answer is not a JSON object')
  return body as Record<string, unknown>
}

function urlField (value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') throw new Error(`"${name}" is not a URL`)
  return value
}

function text (value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
}

/** The first `max` entries of a list answer, each read by `read`, and the count it listed. */
function page (list: unknown[], max: number, read: (entry: unknown) => SourceGif): SourcePage {
  return { gifs: list.slice(0, max).map(read), listed: list.length }
}

/** An answer of one gif. */
function one (gif: SourceGif): SourcePage {
  return { gifs: [gif], listed: 1 }
}

function trimBase (base: string): string {
  return base.replace(/\/+$/, '')
}

/**
 * nekos.best v2 (docs.nekos.best, "API Reference"): GET {base}/{category}?amount=N (1 to
 * 20) → {"results": [{"url", "anime_name"}]} for gifs, [{"url", "artist_name",
 * "artist_href", "source_url"}] for images. 200 requests a minute per category endpoint;
 * a User-Agent "APP/VERSION (URL)" is required.
 */
export const nekosBest: GifSource = {
  name: 'nekos.best',
  setting: 'GIF_PULL_NEKOS_BEST_URL',
  defaultIntervalMs: 300,
  maxPerRequest: 20,
  categories: same('baka', 'bite', 'blush', 'cry', 'dance', 'feed', 'handhold', 'highfive', 'hug', 'kiss', 'laugh', 'pat', 'poke', 'punch', 'shrug', 'slap', 'smug', 'stare', 'tickle', 'wag', 'wave', 'wink'),
  request (base, theirs, want) {
    const amount = Math.min(20, Math.max(1, want))
    return { method: 'GET', url: `${trimBase(base)}/${encodeURIComponent(theirs)}?amount=${amount}`, pageSize: amount }
  },
  parse (body, max) {
    const results = object(body).results
    if (!Array.isArray(results)) throw new Error('"results" is not a list')
    return page(results, max, (r) => {
      const e = object(r)
      return {
        url: urlField(e.url, 'url'),
        attribution: { animeName: text(e.anime_name), artist: text(e.artist_name), artistUrl: text(e.artist_href), sourceUrl: text(e.source_url) }
      }
    })
  }
}

/**
 * waifu.pics: POST {base}/many/sfw/{category} {"exclude": [...]} → {"files": [30 URLs]}
 * (GET {base}/sfw/{category} → {"url"} answers one). No attribution; no published limit.
 */
export const waifuPics: GifSource = {
  name: 'waifu.pics',
  setting: 'GIF_PULL_WAIFU_PICS_URL',
  defaultIntervalMs: 1000,
  maxPerRequest: 30,
  categories: same('bite', 'blush', 'cry', 'dance', 'handhold', 'highfive', 'hug', 'kiss', 'lick', 'pat', 'poke', 'slap', 'smug', 'wave', 'wink'),
  request: (base, theirs) => ({ method: 'POST', url: `${trimBase(base)}/many/sfw/${encodeURIComponent(theirs)}`, json: { exclude: [] }, pageSize: 30 }),
  parse (body, max) {
    const e = object(body)
    if (Array.isArray(e.files)) return page(e.files, max, (f) => ({ url: urlField(f, 'files[]'), attribution: {} }))
    if (typeof e.url === 'string') return one({ url: urlField(e.url, 'url'), attribution: {} })
    throw new Error('neither "files" nor "url"')
  }
}

/**
 * OtakuGIFs: GET {base}/gif?reaction={reaction}&format=gif → {"url"}; the reactions at
 * {base}/gif/allreactions. No attribution; no published limit.
 */
export const otakuGifs: GifSource = {
  name: 'otakugifs',
  setting: 'GIF_PULL_OTAKUGIFS_URL',
  defaultIntervalMs: 1000,
  maxPerRequest: 1,
  categories: same('bite', 'blush', 'cry', 'dance', 'handhold', 'hug', 'kiss', 'laugh', 'lick', 'pat', 'poke', 'punch', 'shrug', 'slap', 'smug', 'stare', 'tickle', 'wave', 'wink'),
  request: (base, theirs) => ({ method: 'GET', url: `${trimBase(base)}/gif?reaction=${encodeURIComponent(theirs)}&format=gif`, pageSize: 1 }),
  parse: (body) => one({ url: urlField(object(body).url, 'url'), attribution: {} })
}

/**
 * PurrBot ImageAPI v2: GET {base}/img/sfw/{category}/gif → {"error": false, "link",
 * "time"} (older answers: {"code": 200, "link"}). Its "tail" gifs are our "wag". No
 * attribution; no published limit.
 */
export const purrBot: GifSource = {
  name: 'purrbot',
  setting: 'GIF_PULL_PURRBOT_URL',
  defaultIntervalMs: 1000,
  maxPerRequest: 1,
  categories: { ...same('bite', 'blush', 'cry', 'dance', 'fluff', 'hug', 'kiss', 'lick', 'neko', 'pat', 'poke', 'slap', 'tickle'), wag: 'tail' },
  request: (base, theirs) => ({ method: 'GET', url: `${trimBase(base)}/img/sfw/${encodeURIComponent(theirs)}/gif`, pageSize: 1 }),
  parse (body) {
    const e = object(body)
    if (e.error === true) throw new Error(`the source answered an error: ${text(e.message) ?? 'no message'}`)
    return one({ url: urlField(e.link, 'link'), attribution: {} })
  }
}

export const GIF_SOURCES: readonly GifSource[] = [nekosBest, waifuPics, otakuGifs, purrBot]

export function findSource (name: string): GifSource | undefined {
  return GIF_SOURCES.find((s) => s.name === name.toLowerCase())
}
