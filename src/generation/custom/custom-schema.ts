// The /gen/custom layer model (docs/generation.md, "Custom images"; what clients send:
// docs/compatibility.md): a base (rectangle or image), image elements drawn in order,
// then texts, with `global` text defaults. Field names are the hosted service's C#
// client's. The schema documents the body in the OpenAPI document; the limits are
// checked by custom-checks.ts, and custom.ts draws.
import { type Static, Type } from 'typebox'
import { closedSet, component } from '../../http/openapi-annotations.js'
import { OUTPUT_FORMATS } from '../canvas/draw.js'
import { DEFAULT_DATE_FORMAT, MAX_TEXT_LENGTH, TRIANGLE_CORNERS } from './custom-limits.js'

const Num = (description: string) => Type.Optional(Type.Number({ description }))
const Str = (description: string) => Type.Optional(Type.String({ description, maxLength: MAX_TEXT_LENGTH }))
const Bool = (description: string) => Type.Optional(Type.Boolean({ description }))

const BaseSchema = component('CustomBase', Type.Object({
  type: Str('"bitmap" (a rectangle) or "url" (an image); a base with a url is an image'),
  url: Str('Image of the base: an absolute http(s) URL, or a name from /list/banners or /list/icons ("space", "banner:space", "icon:star"); the canvas takes its size unless width/height are given'),
  width: Num('Canvas width, 1..3000'),
  height: Num('Canvas height, 1..3000'),
  color: Str('Fill colour of a rectangle base')
}, { additionalProperties: true }))

const ImageSchema = component('CustomImageLayer', Type.Object({
  type: closedSet(Str('bitmap (a rectangle, filled with color, or showing the url\'s image when there is one), url (an image), circle or triangle (the image clipped to that shape, or filled with color); a url element may omit it'), { values: () => ['bitmap', 'url', 'circle', 'triangle'] }),
  url: Str('The image: an absolute http(s) URL, or a name from /list/icons or /list/banners ("star", "icon:star", "banner:space")'),
  width: Num('Width'),
  height: Num('Height'),
  size: Num('Sets width and height'),
  maxwidth: Num('Scale down to at most this width'),
  maxheight: Num('Scale down to at most this height'),
  x: Num('Left'),
  y: Num('Top'),
  round: Num('Corner radius (large values make round avatars)'),
  radius: Num('Circle radius'),
  rotate: Num('Rotation in degrees, around the element\'s centre'),
  color: Str('Fill colour of shapes'),
  cut: closedSet(Str('Triangle corner: topleft, topright, bottomleft, bottomright'), { values: () => TRIANGLE_CORNERS }),
  filter: Str('grayscale, sepia, invert, blur, or a CSS filter such as "blur(4px)"'),
  opacity: Num('0 (transparent) to 10 (opaque, the default); 5 is half. A fraction below 1 such as 0.4 is read as 0..1'),
  cache: Bool('Accepted for compatibility: fetched images are always cached briefly'),
  skip: Bool('true hides the element')
}, { additionalProperties: true }))

const TextSchema = component('CustomText', Type.Object({
  text: Str('The text'),
  texts: Type.Optional(Type.Array(Type.String({ maxLength: MAX_TEXT_LENGTH }), { description: 'Several lines', maxItems: 200 })),
  size: Num('Font size in pixels (16)'),
  font: Str('A name from /list/fonts ("Sans Serif")'),
  color: Str('Text colour (white)'),
  back: Str('Background box colour'),
  x: Num('Anchor x'),
  y: Num('Top y'),
  align: closedSet(Str('l, m or r (left, middle, right of x)'), { values: () => ['l', 'm', 'r'] }),
  width: Num('Wrap width, 0 = no wrapping'),
  height: Num('Clip height, 0 = none'),
  line: Num('Line spacing factor (1)'),
  outlinecolor: Str('Outline colour (black)'),
  outlinewidth: Num('Outline width (0 = none)'),
  outlineblur: Num('Outline blur (0)'),
  bold: Bool('Bold'),
  italics: Bool('Italic'),
  underline: Bool('Underline'),
  weight: Num('Font weight 100..900'),
  blend: Str('Blend mode: multiply, screen, overlay, darken, lighten, …'),
  skip: Bool('true hides the text'),
  unix: Num('Render this Unix time (seconds) as a date; 0 = no date'),
  snowflake: Str('Render the creation time of this Discord snowflake as a date; 0 = no date'),
  format: Str(`.NET date format, invariant culture, UTC (${DEFAULT_DATE_FORMAT}): a standard format (d D f F g G t T M Y s u o r) or custom specifiers (yyyy MMMM MMM MM dddd ddd dd d HH hh mm ss fff tt zzz, '...' literals)`)
}, { additionalProperties: true }))

const GlobalSchema = component('CustomGlobal', Type.Object({
  textSize: Num('Default size'),
  textColor: Str('Default colour'),
  textFont: Str('Default font'),
  textOutlineWidth: Num('Default outline width'),
  textOutineWidth: Num('The same, as one client spells it'),
  textOutlineColor: Str('Default outline colour'),
  textOutlineBlur: Num('Default outline blur'),
  textAlign: Str('Default alignment'),
  textX: Num('Default x')
}, { additionalProperties: true }))

export const CustomBodySchema = component('CustomImage', Type.Object({
  output: closedSet(Str('png, jpg (default), webp or gif; gif and webp move when an image does (animated)'), { values: () => OUTPUT_FORMATS }),
  format: closedSet(Str('The same as output'), { values: () => OUTPUT_FORMATS }),
  animated: Type.Optional(Type.Union([Type.Boolean(), closedSet(Type.String({ maxLength: 5 }), { values: () => ['auto', 'true', 'false'] })], { description: 'auto (default: the picture moves when the base or a layer is an animated GIF or WebP and output is gif or webp), true (the same; refused for png and jpg), false (a still: the first frames)' })),
  max_bytes: Num('Largest answer in bytes, 1024..10485760 (default 10485760): a larger picture gets fewer colours (or a lower quality), then fewer frames, then a smaller scale, then becomes a still, as the X-Image-Reduced header says'),
  base: Type.Optional(BaseSchema),
  images: Type.Optional(Type.Array(ImageSchema)),
  texts: Type.Optional(Type.Array(TextSchema)),
  global: Type.Optional(GlobalSchema)
}, {
  additionalProperties: true,
  examples: [{
    output: 'png',
    base: { type: 'bitmap', width: 600, height: 200, color: '#23272a' },
    images: [{ type: 'circle', x: 30, y: 30, radius: 70, color: '#5865f2' }],
    texts: [{ text: 'Hello', x: 360, y: 70, size: 56, align: 'm', color: 'white' }]
  }]
}))
export type CustomBody = Static<typeof CustomBodySchema>
export type CustomBase = Static<typeof BaseSchema>
export type ImageElement = Static<typeof ImageSchema>
export type TextElement = Static<typeof TextSchema>
export type CustomGlobal = Static<typeof GlobalSchema>
