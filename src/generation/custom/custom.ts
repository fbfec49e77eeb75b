// /gen/custom drawn: a checked description (custom-checks.ts) of the layer model
// (custom-schema.ts) becomes a picture, its images fetched first (render-job.ts on the
// main thread; decoded in the thread that draws, drawer.ts).
import type { SKRSContext2D } from '@napi-rs/canvas'
import { AppError } from '../../errors.js'
import { type Drawable, naturalSize, type Sized } from '../drawable.js'
import { colorField } from '../canvas/color.js'
import { BLENDS, checkLimits, filterOf, limit, opacityOf, side, textOf, withoutUnsetValues } from './custom-checks.js'
import { MAX_BLURRED_PIXELS, MAX_SIDE, type TRIANGLE_CORNERS } from './custom-limits.js'
import type { CustomBase, CustomBody, CustomGlobal, ImageElement, TextElement } from './custom-schema.js'
import { drawCover, roundedRect, wrapText } from '../canvas/draw.js'
import { drawLine, measureLine } from '../text/inline-text.js'
import { drawnText, markText, type MarkedText } from '../text/markup.js'
import { textDirection } from '../text/scripts.js'
import { type Draw, sized, type TemplateDeps } from '../templates/template.js'

/**
 * Checks the whole description (limits, element types, colours, fonts, filters) and
 * fetches and decodes every URL it names, in parallel; the returned function draws.
 * Nothing that can wait is left for drawing, so that the render slot is spent on CPU.
 */
export async function prepareCustom<I extends Sized> ({ fonts, images: source }: TemplateDeps<I>, sent: CustomBody): Promise<Draw<I>> {
  const body = withoutUnsetValues(sent)
  checkLimits(body)
  const base = body.base ?? {}
  const elements = body.images ?? []
  const g = body.global ?? {}
  const styles = elements.map((el, i) => el.skip ? undefined : elementStyle(el, i))
  const texts = (body.texts ?? []).map((t, i) => t.skip ? undefined : textStyle(fonts, t, g, i))
  const baseColor = base.url ? undefined : colorField(base.color, 'white', 'base.color')
  // Layer n's role names its index. A url is an image URL or a listed icon or banner by name.
  const emoji = source.emoji.bind(source)
  const [[baseImage, ...layerImages], marked] = await Promise.all([
    Promise.all([
      base.url ? source.image(base.url, 'base', 'base.url') : Promise.resolve(undefined),
      ...elements.map(async (el, i): Promise<I | undefined> => el.skip || !el.url ? undefined : await source.image(el.url, `layer ${i}`, `images[${i}].url`))
    ]),
    // Discord markup in the texts: custom emoji fetched, mentions written out (markup.ts).
    Promise.all(texts.map(async (style) => style === undefined ? undefined : await markText(style.text, emoji)))
  ])
  const { width, height } = canvasSize(base, baseImage === undefined ? undefined : naturalSize(baseImage))
  let blurred = 0
  elements.forEach((el, i) => {
    const style = styles[i]
    if (style === undefined || !/blur/i.test(style.filter)) return
    const image = layerImages[i]
    const { w, h } = elementBox(el, style.type, image === undefined ? undefined : naturalSize(image))
    blurred += Math.min(w * h, width * height)
  })
  if (blurred > MAX_BLURRED_PIXELS) limit(`The layers blur ${Math.round(blurred)} pixels together, at most ${MAX_BLURRED_PIXELS} per picture: blur fewer or smaller layers`, 'images')
  return sized<I>(width, height, (newCanvas, pixels) => {
    const canvas = newCanvas(width, height)
    const ctx = canvas.getContext('2d')
    if (baseImage) {
      ctx.drawImage(pixels(baseImage), 0, 0, width, height)
    } else {
      ctx.fillStyle = baseColor!
      ctx.fillRect(0, 0, width, height)
    }
    elements.forEach((el, i) => { if (styles[i]) drawElement(ctx, el, styles[i], pixels(layerImages[i])) })
    texts.forEach((style, i) => { if (style) drawText(ctx, style, drawnText(marked[i]!, pixels)) })
    return canvas
  })
}

function canvasSize (base: CustomBase, image: { width: number, height: number } | undefined): { width: number, height: number } {
  return {
    width: side(base.width, 'base.width') ?? (image ? Math.min(MAX_SIDE, image.width) : 1024),
    height: side(base.height, 'base.height') ?? (image ? Math.min(MAX_SIDE, image.height) : 512)
  }
}

/**
 * The box each URL is drawn in, the largest where one URL is drawn several times, from
 * the images' sizes as sent (their headers): a larger image is decoded shrunk to it.
 */
export function customImageBoxes (sent: CustomBody, sizeOf: (url: string) => { width: number, height: number } | undefined): Map<string, { width: number, height: number }> {
  const body = withoutUnsetValues(sent)
  const boxes = new Map<string, { width: number, height: number }>()
  const grow = (url: string, width: number, height: number): void => {
    const key = url.trim()
    const box = boxes.get(key)
    // A side under a pixel (a 0 that means "not set" to some clients): no box, never shrunk.
    if (!(width >= 1 && height >= 1)) width = height = Infinity
    boxes.set(key, { width: Math.max(box?.width ?? 0, Math.ceil(width)), height: Math.max(box?.height ?? 0, Math.ceil(height)) })
  }
  const base = body.base ?? {}
  if (base.url) grow(base.url, ...Object.values(canvasSize(base, sizeOf(base.url))) as [number, number])
  for (const el of body.images ?? []) {
    if (el.skip || !el.url) continue
    const type = (el.type ?? 'url').toLowerCase()
    const { w, h } = elementBox(el, type, sizeOf(el.url))
    if (type === 'circle') {
      const r = el.radius ?? Math.min(w, h) / 2
      grow(el.url, r * 2, r * 2)
    } else grow(el.url, w, h)
  }
  return boxes
}

/** An element's drawn width and height, from its fields and its image's size as sent. */
function elementBox (el: ImageElement, type: string, image: { width: number, height: number } | undefined): { w: number, h: number } {
  let w = el.size ?? el.width ?? (type === 'circle' ? (el.radius ?? 50) * 2 : image?.width ?? 100)
  let h = el.size ?? el.height ?? (type === 'circle' ? (el.radius ?? 50) * 2 : image?.height ?? 100)
  if (image && el.size === undefined && el.width !== undefined && el.height === undefined) h = image.height * (w / image.width)
  if (image && el.size === undefined && el.height !== undefined && el.width === undefined) w = image.width * (h / image.height)
  const scale = Math.min(1, el.maxwidth ? el.maxwidth / w : 1, el.maxheight ? el.maxheight / h : 1)
  return { w: w * scale, h: h * scale }
}

interface ElementStyle {
  type: 'bitmap' | 'url' | 'circle' | 'triangle'
  cut: keyof typeof TRIANGLE_CUTS
  filter: string
  opacity: number
  /** Fill of a shape without an image. */
  color: string | undefined
}

/** The triangle kept by `cut`, as corners of the element's box (0 = left/top, 1 = right/bottom). */
const TRIANGLE_CUTS: Readonly<Record<typeof TRIANGLE_CORNERS[number], ReadonlyArray<readonly [number, number]>>> = {
  topleft: [[0, 0], [1, 0], [0, 1]],
  topright: [[0, 0], [1, 0], [1, 1]],
  bottomleft: [[0, 0], [0, 1], [1, 1]],
  bottomright: [[1, 0], [1, 1], [0, 1]]
} as const

function elementStyle (el: ImageElement, i: number): ElementStyle {
  const field = `images[${i}]`
  const type = (el.type ?? (el.url ? 'url' : 'bitmap')).toLowerCase()
  if (type !== 'bitmap' && type !== 'url' && type !== 'circle' && type !== 'triangle') throw new AppError('VALIDATION', `Invalid "${field}.type": "${el.type}"; use bitmap, url, circle or triangle`, { details: { field: `${field}.type` } })
  const cut = (el.cut ?? 'bottomright').toLowerCase()
  if (type === 'triangle' && !Object.hasOwn(TRIANGLE_CUTS, cut)) throw new AppError('VALIDATION', `Invalid "${field}.cut": "${el.cut}"; use topleft, topright, bottomleft or bottomright`, { details: { field: `${field}.cut` } })
  return {
    type,
    cut: cut as ElementStyle['cut'],
    filter: filterOf(el.filter, `${field}.filter`),
    opacity: opacityOf(el.opacity),
    color: el.url ? undefined : colorField(el.color, 'black', `${field}.color`)
  }
}

function drawElement (ctx: SKRSContext2D, el: ImageElement, style: ElementStyle, image: Drawable | undefined): void {
  const { type } = style
  const { w, h } = elementBox(el, type, image === undefined ? undefined : naturalSize(image))
  const x = el.x ?? 0
  const y = el.y ?? 0
  ctx.save()
  ctx.globalAlpha = style.opacity
  ctx.filter = style.filter
  if (el.rotate) {
    ctx.translate(x + w / 2, y + h / 2)
    ctx.rotate((el.rotate * Math.PI) / 180)
    ctx.translate(-(x + w / 2), -(y + h / 2))
  }
  if (type === 'circle') {
    const r = el.radius ?? Math.min(w, h) / 2
    ctx.beginPath(); ctx.arc(x + r, y + r, r, 0, Math.PI * 2); ctx.closePath()
    if (image) { ctx.clip(); drawCover(ctx, image, x, y, r * 2, r * 2) } else { ctx.fillStyle = style.color!; ctx.fill() }
  } else if (type === 'triangle') {
    ctx.beginPath(); TRIANGLE_CUTS[style.cut].forEach(([cx, cy]) => ctx.lineTo(x + cx * w, y + cy * h)); ctx.closePath()
    if (image) { ctx.clip(); ctx.drawImage(image, x, y, w, h) } else { ctx.fillStyle = style.color!; ctx.fill() }
  } else {
    const round = el.round ?? 0
    if (round > 0) { roundedRect(ctx, x, y, w, h, round); ctx.clip() }
    if (image) ctx.drawImage(image, x, y, w, h)
    else { ctx.fillStyle = style.color!; ctx.fillRect(x, y, w, h) }
  }
  ctx.restore()
}

interface TextStyle {
  text: string
  font: string
  size: number
  align: 'left' | 'center' | 'right'
  x: number
  y: number
  width: number
  height: number
  lineHeight: number
  back: string | undefined
  blend: GlobalCompositeOperation
  color: string
  outline: { width: number, blur: number, color: string } | undefined
  underline: boolean
}

function textStyle (fonts: TemplateDeps['fonts'], t: TextElement, g: CustomGlobal, i: number): TextStyle | undefined {
  const field = `texts[${i}]`
  const text = textOf(t, i)
  if (text === '') return undefined
  const size = t.size ?? g.textSize ?? 16
  const family = fonts.family(t.font ?? g.textFont, `${field}.font`, text)
  // The C# client sends weight 500 beside every `bold`: bold still makes it bold.
  const weight = t.weight !== undefined ? String(Math.max(t.bold ? 700 : 100, Math.min(900, Math.round(t.weight / 100) * 100))) : t.bold ? 'bold' : 'normal'
  const align = (t.align ?? g.textAlign ?? 'l').toLowerCase()[0]
  const blend = (t.blend ?? 'source-over').toLowerCase()
  if (!BLENDS.has(blend)) throw new AppError('VALIDATION', `Invalid "${field}.blend": "${t.blend}"; use one of ${[...BLENDS].join(', ')}`, { details: { field: `${field}.blend` } })
  const outlineWidth = t.outlinewidth ?? g.textOutlineWidth ?? g.textOutineWidth ?? 0
  return {
    text,
    font: `${t.italics ? 'italic ' : ''}${weight} ${size}px ${family}`,
    size,
    align: align === 'm' || align === 'c' ? 'center' : align === 'r' ? 'right' : 'left',
    x: t.x ?? g.textX ?? 0,
    y: t.y ?? 0,
    width: t.width && t.width > 0 ? t.width : 0,
    height: t.height && t.height > 0 ? t.height : 0,
    lineHeight: size * 1.2 * (t.line ?? 1),
    back: t.back ? colorField(t.back, 'black', `${field}.back`) : undefined,
    blend: blend as GlobalCompositeOperation,
    color: colorField(t.color ?? g.textColor, 'white', `${field}.color`),
    outline: outlineWidth > 0
      ? { width: outlineWidth, blur: t.outlineblur ?? g.textOutlineBlur ?? 0, color: colorField(t.outlinecolor ?? g.textOutlineColor, 'black', `${field}.outlinecolor`) }
      : undefined,
    underline: t.underline === true
  }
}

function drawText (ctx: SKRSContext2D, s: TextStyle, { text, images }: MarkedText): void {
  ctx.save()
  ctx.font = s.font
  ctx.textAlign = s.align
  ctx.textBaseline = 'top'
  // Every line in the direction of the whole text, as a paragraph is laid out (scripts.ts).
  ctx.direction = textDirection(s.text)
  const { x, y } = s
  const lines = wrapText(ctx, text, s.width, images)
  // A loop, not Math.max(...widths): a spread of thousands of lines overflowed the stack.
  let boxWidth = s.width
  if (boxWidth <= 0) for (const l of lines) boxWidth = Math.max(boxWidth, measureLine(ctx, l, images))
  const left = s.align === 'center' ? x - boxWidth / 2 : s.align === 'right' ? x - boxWidth : x
  const boxHeight = s.height > 0 ? s.height : lines.length * s.lineHeight
  if (s.height > 0) { ctx.beginPath(); ctx.rect(left - 4, y, boxWidth + 8, s.height); ctx.clip() }
  if (s.back) { ctx.fillStyle = s.back; ctx.fillRect(left - 4, y - 2, boxWidth + 8, boxHeight + 4) }
  ctx.globalCompositeOperation = s.blend
  // Lines wholly below the canvas (or the clip) draw nothing: not drawing them bounds the
  // work by the canvas, whatever the wrapping made of the text.
  const bottom = s.height > 0 ? Math.min(ctx.canvas.height, y + s.height) : ctx.canvas.height
  lines.forEach((line, n) => {
    const ly = y + n * s.lineHeight
    if (ly - s.size > bottom) return
    if (s.outline) {
      ctx.save()
      if (s.outline.blur > 0) { ctx.shadowColor = s.outline.color; ctx.shadowBlur = s.outline.blur }
      ctx.strokeStyle = s.outline.color
      ctx.lineWidth = s.outline.width * 2
      ctx.lineJoin = 'round'
      drawLine(ctx, line, x, ly, 'stroke', images)
      ctx.restore()
    }
    ctx.fillStyle = s.color
    drawLine(ctx, line, x, ly, 'fill', images)
    if (s.underline) {
      const w = measureLine(ctx, line, images)
      const lx = s.align === 'center' ? x - w / 2 : s.align === 'right' ? x - w : x
      ctx.fillRect(lx, ly + s.size * 1.05, w, Math.max(1, s.size / 14))
    }
  })
  ctx.restore()
}
