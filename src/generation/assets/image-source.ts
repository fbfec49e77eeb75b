// Images named by a field: a URL or, for banners and icons, a listed name. Templates and
// custom descriptions ask an ImageSource for them twice (drawable.ts): on the main
// thread, which fetches URLs and checks names and knows the images' sizes
// (ImageSource<Sized>: render-job.ts), and in the thread that draws, which decodes what
// the main thread fetched (ImageSource<Drawable>: drawer.ts).
import type { DiscordEmoji } from '../text/markup.js'
import type { Drawable, Sized } from '../drawable.js'
import type { AssetKind } from './asset-catalog.js'

export interface ImageSource<I extends Sized = Drawable> {
  url (url: string, role: string): Promise<I>
  /** A listed asset name (case-insensitive) or an image URL. */
  assetOrUrl (kind: AssetKind, value: string, role: string): Promise<I>
  /**
   * An image URL, or a listed icon or banner by name (listedImage in asset-catalog.ts):
   * the images of /gen/custom. An unknown name is UNKNOWN_ASSET naming `field`.
   */
  image (value: string, role: string, field: string): Promise<I>
  /**
   * A custom emoji of Discord markup in a text (markup.ts), from the CDN; undefined when
   * it cannot be had (the fetch failed, or the picture has fetched its share), and the
   * text then says `:name:`. Never an error: a text is still a text without its emoji.
   */
  emoji (emoji: DiscordEmoji): Promise<I | undefined>
}
