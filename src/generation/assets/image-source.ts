// Images named by a field: a URL or, for banners and icons, a listed name. Templates and
// custom descriptions ask an ImageSource for them twice: on the main thread, which
// fetches URLs and checks names (render-job.ts), and in the thread that draws, which
// decodes what the main thread fetched (drawer.ts).
import type { AssetKind, Drawable } from './assets.js'
import type { DiscordEmoji } from '../text/markup.js'

export interface ImageSource {
  url (url: string, role: string): Promise<Drawable>
  /** A listed asset name (case-insensitive) or an image URL. */
  assetOrUrl (kind: AssetKind, value: string, role: string): Promise<Drawable>
  /**
   * An image URL, or a listed icon or banner by name (listedImage in asset-catalog.ts):
   * the images of /gen/custom. An unknown name is UNKNOWN_ASSET naming `field`.
   */
  image (value: string, role: string, field: string): Promise<Drawable>
  /**
   * A custom emoji of Discord markup in a text (markup.ts), from the CDN; undefined when
   * it cannot be had (the fetch failed, or the picture has fetched its share), and the
   * text then says `:name:`. Never an error: a text is still a text without its emoji.
   */
  emoji (emoji: DiscordEmoji): Promise<Drawable | undefined>
}

// A shrunk image (src/generation/pipeline/render-job.ts) is drawn from fewer pixels than it has:
// layout (aspect ratios, a base's canvas size) goes by the size the image was sent at.
const naturalSizes = new WeakMap<object, { width: number, height: number }>()

export function setNaturalSize (image: Drawable, width: number, height: number): void {
  naturalSizes.set(image, { width, height })
}

/** The image's size as sent, whatever resolution it was decoded at. */
export function naturalSize (image: Drawable): { width: number, height: number } {
  return naturalSizes.get(image) ?? image
}

export function isUrlLike (value: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(value.trim())
}

/** `icon:star`, `banner:space` (a trailing s allowed): a listed image named in its list, not a URL. */
export const LISTED_PREFIX = /^(icon|banner)s?:/i

/** Whether an image field of /gen/custom fetches a URL, rather than naming a listed image. */
export function isFetchedUrl (value: string): boolean {
  return isUrlLike(value) && !LISTED_PREFIX.test(value.trim())
}
