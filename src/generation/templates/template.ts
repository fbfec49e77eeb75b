// What a /gen/{template} picture is: its fields (every one a string, as clients send
// them, and optional, with a default, so that a GET URL with only `username` is a
// picture), how it is prepared and drawn, and the boxes its images are drawn in.
import type { Canvas } from '@napi-rs/canvas'
import { AppError } from '../../errors.js'
import type { ImageSource } from '../assets/image-source.js'
import type { Drawable, Pixels, Sized } from '../drawable.js'
import type { NewCanvas } from '../canvas/canvas-pool.js'
import type { OutputFormat } from '../canvas/draw.js'
import type { FontRegistry } from '../text/fonts.js'

export const MAX_FIELD_LENGTH = 2000

/** What a picture is prepared with: font names, and images of its phase (I: drawable.ts). */
export interface TemplateDeps<I extends Sized = Drawable> { fonts: FontRegistry, images: ImageSource<I> }
export type TemplateFields = Record<string, string | undefined>
/**
 * A prepared picture: its canvas's size, known before drawing (the budgets of an
 * animation: src/generation/pipeline/timeline.ts), and its drawing on a canvas made by
 * `newCanvas` (the server's pool, or createCanvas), CPU work only, nothing left to wait
 * for. Drawing needs the images it was prepared with as pixels: only the thread that
 * draws has them (`drawn`, drawable.ts); the event loop reads the size alone. The first
 * canvas a drawing makes is the picture; a later one is scratch (an image sampled for
 * its colours), which the drawing leaves behind.
 */
export type Draw<I = Drawable> = ((newCanvas: NewCanvas, pixels: Pixels<I>) => Canvas) & Sized

/** A drawing function with its canvas's size. */
export function sized<I> (width: number, height: number, draw: (newCanvas: NewCanvas, pixels: Pixels<I>) => Canvas): Draw<I> {
  return Object.assign(draw, { width, height })
}

export interface FieldDoc {
  description: string
  default?: string
  /**
   * A number: the document types it as a number or a string (JSON clients send 12, the
   * hosted service's clients "12"; both read the same), so generated clients take `level: 12`.
   */
  numeric?: true
  /**
   * A JSON value (the leaderboard's players): a body sends it as JSON, which the route
   * hands the template as its JSON text; a query parameter sends that text.
   */
  json?: true
  /**
   * Several values (a profile's badges): separated by commas in a string (a query
   * parameter), or a JSON array of strings in a body, which the route hands the template
   * as its JSON text; the template reads either with listValues.
   */
  list?: true
  /** The values the field takes, listed in the document (an enum); the template reads the value itself. */
  values?: () => readonly string[]
  /**
   * The field reads other spellings of `values` too (a locale's pt-br, zh), as this says:
   * the document lists the values and any string (anyOf), so that a generated client
   * offers the values and takes the other spellings.
   */
  otherSpellings?: string
}

export interface Template {
  name: string
  summary: string
  defaultFormat: OutputFormat
  fields: Record<string, FieldDoc>
  /** A request's fields that show the template off: the OpenAPI document's example of it. */
  example?: Readonly<Record<string, unknown>>
  /**
   * Checks the fields and has every image they name (URLs, assets) from `deps.images`;
   * the returned function draws. Run twice by the same code: on the event loop, whose
   * images are sizes (every 400 answered, every URL fetched, the canvas size known
   * before work is queued), and in the thread that draws, whose images are decoded
   * (drawable.ts). The split keeps network waits out of the render slot: a slow avatar
   * server must not hold a CPU slot other requests could use.
   */
  prepare<I extends Sized> (deps: TemplateDeps<I>, fields: TemplateFields): Promise<Draw<I>>
  /**
   * The box each image field is drawn in (cover): a larger image is decoded shrunk to
   * it (src/generation/pipeline/render-job.ts), so a 5000×5000 avatar never becomes 100 MB of pixels.
   * A list field (FieldDoc.list) has each of its images drawn in the box.
   */
  imageBoxes: Record<string, { width: number, height: number }>
}

/**
 * The values of a list field (FieldDoc.list), such as a profile's badges: the JSON text of
 * an array of strings (a body's array, as the route hands it on), or values separated by
 * commas or white space, which an image URL or a listed name never holds unencoded (a
 * JSON array starts with "[", which neither does). A bad item is a 400 naming its place
 * (`badges[2]`).
 */
export function listValues (value: string | undefined, field: string): string[] {
  const text = (value ?? '').trim()
  if (!text.startsWith('[')) return text.split(/[\s,]+/).filter((v) => v !== '')
  let items: unknown[]
  try {
    items = JSON.parse(text) as unknown[]
  } catch {
    throw new AppError('VALIDATION', `Invalid "${field}": not a JSON array; send an array of strings in a body, or the values separated by commas`, { details: { field } })
  }
  return items.map((item, i) => {
    const at = `${field}[${i}]`
    if (typeof item !== 'string' || item.trim() === '') {
      throw new AppError('VALIDATION', `Invalid "${at}": ${(JSON.stringify(item) ?? String(item)).slice(0, 40)}; expected a name or an image URL (a non-empty string)`, { details: { field: at } })
    }
    return item.trim()
  })
}
