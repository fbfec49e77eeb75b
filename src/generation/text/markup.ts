// Discord's markup in the texts a picture draws (docs/generation.md, "Discord markup"):
// a custom emoji, `<:name:id>` or `<a:name:id>` (animated), is drawn as its image from
// Discord's CDN, in the line, at the text's size; a mention of a member, a channel or a
// role is drawn as words, since the picture cannot know the name the id stands for.
// Parsing is plain string work, done on both threads: the main thread fetches the emoji
// (render-job.ts), the thread that draws draws them (inline-text.ts). Syntax: Discord's
// message formatting reference ("Formats": User, User (Nickname), Channel, Role, Custom
// Emoji, Custom Emoji (Animated)).
import type { Drawable, Pixels } from '../drawable.js'

export interface DiscordEmoji {
  /** A snowflake: digits only, which is what makes it safe in a URL path. */
  id: string
  name: string
  animated: boolean
}

export type MarkupPart = string | DiscordEmoji

/**
 * Distinct custom emoji fetched for one picture: each is a fetch from the CDN, waited
 * for before the picture is queued. Further ones are drawn as their `:name:`.
 */
export const MAX_EMOJI_PER_PICTURE = 20

/** Where Discord serves custom emoji: `{base}/emojis/{id}.png`, `.gif` for animated ones (Discord's API reference, "Image Formatting", CDN endpoint "Custom Emoji"). */
export const DEFAULT_DISCORD_CDN = 'https://cdn.discordapp.com'

// A name is 2..32 letters, digits and underscores on Discord; the client also writes a `~1`
// suffix for a second emoji of the same name, so a little more is accepted. An id is a
// snowflake (up to 20 digits).
const MARKUP = /<(a?):([\w~-]{1,40}):(\d{1,20})>|<@!?(\d{1,20})>|<#(\d{1,20})>|<@&(\d{1,20})>/g

/** What a mention draws as: no name can be known for an id, so the kind of thing it names. */
export const MENTION_TEXT = { user: '@user', channel: '#channel', role: '@role' } as const

/** The text cut into runs of text and custom emoji; mentions become their words. */
export function parseMarkup (text: string): MarkupPart[] {
  const parts: MarkupPart[] = []
  let last = 0
  let pending = ''
  for (const m of text.matchAll(MARKUP)) {
    pending += text.slice(last, m.index)
    last = m.index + m[0].length
    if (m[3] !== undefined) {
      if (pending !== '') parts.push(pending)
      pending = ''
      parts.push({ id: m[3], name: m[2]!, animated: m[1] === 'a' })
    } else {
      pending += m[4] !== undefined ? MENTION_TEXT.user : m[5] !== undefined ? MENTION_TEXT.channel : MENTION_TEXT.role
    }
  }
  pending += text.slice(last)
  if (pending !== '') parts.push(pending)
  return parts
}

/** The text as words only: emoji as `:name:`, mentions as their words. */
export function plainText (text: string): string {
  return parseMarkup(text).map((p) => typeof p === 'string' ? p : `:${p.name}:`).join('')
}

/** The emoji's image on the CDN at `base` (a setting: DISCORD_CDN_URL). */
export function emojiUrl (base: string, emoji: DiscordEmoji): string {
  return `${base.replace(/\/+$/, '')}/emojis/${emoji.id}.${emoji.animated ? 'gif' : 'png'}`
}

/**
 * A line of text whose custom emoji are stood for by characters of the Supplementary
 * Private Use Area-A (one code point, one grapheme each), mapped to their images: every
 * function that measures, cuts or wraps text (draw.ts) handles them as one character, and
 * inline-text.ts draws the image in its place.
 */
export interface MarkedText<I = Drawable> {
  text: string
  images: ReadonlyMap<string, I>
}

/** A text's images as the canvas draws them. */
export type InlineImages = ReadonlyMap<string, Drawable>

export const NO_INLINE_IMAGES: ReadonlyMap<string, never> = new Map<string, never>()

/** The first code point that stands for an emoji; the area has 65,534. */
const PLACEHOLDER_BASE = 0xF0000
const PLACEHOLDERS = /[\u{F0000}-\u{FFFFD}]/u
const PLACEHOLDERS_ALL = /[\u{F0000}-\u{FFFFD}]/gu

export function hasPlaceholder (text: string): boolean {
  return PLACEHOLDERS.test(text)
}

/**
 * The text with its mentions written out and each custom emoji whose image `load` gives
 * stood for by a placeholder; an emoji without an image (its fetch failed, or too many)
 * is written `:name:`. Characters of the placeholders' area sent in the text are replaced
 * by U+FFFD first: no sent character can pose as an emoji.
 */
export async function markText<I> (text: string, load: (emoji: DiscordEmoji) => Promise<I | undefined>): Promise<MarkedText<I>> {
  const parts = parseMarkup(text)
  if (!parts.some((p) => typeof p !== 'string')) return { text: parts.join(''), images: NO_INLINE_IMAGES }
  const loaded = await Promise.all(parts.map(async (p) => typeof p === 'string' ? undefined : await load(p)))
  const images = new Map<string, I>()
  let out = ''
  parts.forEach((p, i) => {
    if (typeof p === 'string') { out += p.replace(PLACEHOLDERS_ALL, '\uFFFD'); return }
    const image = loaded[i]
    if (image === undefined) { out += `:${p.name}:`; return }
    const mark = String.fromCodePoint(PLACEHOLDER_BASE + images.size)
    images.set(mark, image)
    out += mark
  })
  return { text: out, images }
}

/** A marked text as the canvas draws it: its images as pixels (drawable.ts). */
export function drawnText<I> ({ text, images }: MarkedText<I>, pixels: Pixels<I>): MarkedText {
  if (images.size === 0) return { text, images: NO_INLINE_IMAGES }
  return { text, images: new Map([...images].map(([mark, image]) => [mark, pixels(image)])) }
}

/**
 * The words of a name for its avatar's initial: the text without its emoji, or the first
 * emoji's name when the name is emoji alone.
 */
export function nameForInitial (text: string): string {
  const parts = parseMarkup(text)
  const words = parts.filter((p): p is string => typeof p === 'string').join('').trim()
  if (words !== '') return words
  const emoji = parts.find((p): p is DiscordEmoji => typeof p !== 'string')
  return emoji?.name ?? text
}
