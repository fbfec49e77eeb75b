// TypeBox schemas of the colour routes: they validate and produce /openapi.json.
import { Type, type Static } from 'typebox'
import { Envelope } from '../http/envelope.js'
import { component } from '../http/openapi-annotations.js'

const Num = (description: string) => Type.Number({ description })

export const ColorInfoQuerySchema = Type.Object({
  name: Type.Optional(Type.String({ description: 'A colour name: case, spaces, hyphens, underscores and accents are ignored ("Dark Slate Gray", "dark-slate-grey")' })),
  hex: Type.Optional(Type.String({ description: '3, 4, 6 or 8 hex digits, any case, with or without "#" (send it as %23: an unencoded # never reaches the server)', examples: ['00ff00'] })),
  rgb: Type.Optional(Type.String({ description: '"r,g,b" (spaces allowed) or "rgb(r, g, b)", each 0..255', examples: ['0,255,0'] }))
})
export type ColorInfoQuery = Static<typeof ColorInfoQuerySchema>

export const ColorRandomQuerySchema = Type.Object({
  seed: Type.Optional(Type.String({ description: 'Any 1..100 characters: the same seed always gives the same colour (FNV-1a + mulberry32, see docs/colors.md)' }))
})
export type ColorRandomQuery = Static<typeof ColorRandomQuerySchema>

const RgbFields = {
  r: Type.Integer({ minimum: 0, maximum: 255 }),
  g: Type.Integer({ minimum: 0, maximum: 255 }),
  b: Type.Integer({ minimum: 0, maximum: 255 })
}

export const ColorAnswerSchema = component('Colour', Envelope({
  ...RgbFields,
  hex: Type.String({ description: 'Lowercase "#rrggbb"', examples: ['#2f4f4f'] }),
  name: Type.String({ description: 'The colour\'s name: for a value, the nearest named colour by CIEDE2000 (CSS keywords win exact matches)', examples: ['Dark Slate Gray'] }),
  exactName: Type.Boolean({ description: 'true when the named colour has exactly this value' }),
  nameDistance: Num('CIEDE2000 distance from this colour to the named colour (0 when exact)'),
  nameHex: Type.String({ description: 'The named colour\'s own "#rrggbb"' }),
  alpha: Num('Opacity 0..1 from a 4- or 8-digit hex; 1 otherwise. Every other field describes the opaque colour'),
  rgb: Type.String({ examples: ['rgb(47, 79, 79)'] }),
  hsl: Type.Object({ h: Num('Hue, degrees'), s: Num('Saturation, %'), l: Num('Lightness, %') }),
  hsv: Type.Object({ h: Num('Hue, degrees'), s: Num('Saturation, %'), v: Num('Value, %') }),
  cmyk: Type.Object({ c: Num('%'), m: Num('%'), y: Num('%'), k: Num('%') }, { description: 'Naive CMYK (no colour profile)' }),
  lab: Type.Object({ l: Num('L*'), a: Num('a*'), b: Num('b*') }, { description: 'CIELAB, D65 white' }),
  luminance: Num('WCAG 2 relative luminance, 0..1'),
  text: Type.Object({
    color: Type.Union([Type.Literal('black'), Type.Literal('white')], { description: 'The text colour with the higher WCAG contrast on this colour' }),
    hex: Type.String(),
    contrastWithBlack: Num('WCAG contrast ratio of black text on this colour'),
    contrastWithWhite: Num('WCAG contrast ratio of white text on this colour')
  }),
  complementary: Type.Object({ ...RgbFields, hex: Type.String(), name: Type.String() }, { description: 'Hue turned 180° at the same HSL saturation and lightness' }),
  seed: Type.Optional(Type.String({ description: '/color/random: the seed, when one was given' }))
}))
export type ColorAnswer = Static<typeof ColorAnswerSchema>

/** Longest `url=` taken: a Discord avatar or attachment URL with its signed query is about 250 characters. */
export const MAX_PICTURE_URL_LENGTH = 2048

export const ColorImageQuerySchema = Type.Object({
  // No example: "Try it out" on the docs page would fetch it (and the GET form is run without one).
  url: Type.Optional(Type.String({
    minLength: 1,
    maxLength: MAX_PICTURE_URL_LENGTH,
    description: 'Instead of a body: an http(s) URL of the picture (an avatar, an attachment), fetched by the server from a public host within REMOTE_FETCH_MAX_BYTES and REMOTE_FETCH_TIMEOUT_MS; a request with both a body and url is refused'
  }))
})
export type ColorImageQuery = Static<typeof ColorImageQuerySchema>

const PictureColorFields = {
  ...RgbFields,
  hex: Type.String({ description: 'Lowercase "#rrggbb"', examples: ['#5865f2'] }),
  rgb: Type.String({ examples: ['rgb(88, 101, 242)'] }),
  int: Type.Integer({ minimum: 0, maximum: 0xffffff, description: 'The colour as the integer 0xRRGGBB (parseInt(hex, 16)): what a Discord embed\'s `color` field takes', examples: [5793266] }),
  name: Type.String({ description: 'The nearest named colour by CIEDE2000 (as /color/info names a value)', examples: ['Discord Blurple'] })
}
const Share = Type.Number({ minimum: 0, maximum: 1, description: 'The part of the picture\'s counted pixels (at least half opaque) nearest this colour; the palette\'s shares add up to 1 (to rounding)' })

export const ColorImageAnswerSchema = component('PictureColours', Envelope({
  dominant: Type.Object({ ...PictureColorFields, share: Share }, { description: 'The palette colour covering the most of the picture (palette[0])' }),
  palette: Type.Array(Type.Object({ ...PictureColorFields, share: Share }), { minItems: 1, maxItems: 8, description: 'Up to 8 colours (median cut, the `quantize` package), largest share first; each is the mean of the pixels it stands for' }),
  average: Type.Object(PictureColorFields, { description: 'The mean of the counted pixels' }),
  placeholder: Type.Object({
    thumbhash: Type.String({ description: 'A ThumbHash of the picture, base64: about 25 bytes that a client decodes to a blurred preview (the `thumbhash` package, thumbHashToDataURL)' })
  }),
  textColor: Type.Object({
    color: Type.Union([Type.Literal('black'), Type.Literal('white')]),
    hex: Type.Union([Type.Literal('#000000'), Type.Literal('#ffffff')]),
    contrast: Num('WCAG 2 contrast ratio of this text colour on the dominant colour (the higher of black\'s and white\'s)')
  }, { description: 'The text colour readable on the dominant colour' }),
  pixels: Type.Integer({ description: 'Pixels counted, of the picture decoded shrunk to fit 100×100' })
}))
export type ColorImageAnswer = Static<typeof ColorImageAnswerSchema>
