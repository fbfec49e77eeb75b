// The gif categories of the specification: GET /sfw/gif/{imageType} answers these 27.
export const GIF_TYPES = [
  'baka', 'bite', 'blush', 'cry', 'dance', 'feed', 'fluff', 'grab', 'handhold', 'highfive',
  'hug', 'kiss', 'laugh', 'lick', 'neko', 'pat', 'poke', 'punch', 'shrug', 'slap', 'smug',
  'stare', 'tickle', 'wag', 'wasted', 'wave', 'wink'
] as const

export type GifType = typeof GIF_TYPES[number]

const TYPE_SET: ReadonlySet<string> = new Set(GIF_TYPES)

export function isGifType (value: string): value is GifType {
  return TYPE_SET.has(value)
}
