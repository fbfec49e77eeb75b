// What a /gen/{template} picture is: its fields (every one a string, as clients send
// them, and optional, with a default, so that a GET URL with only `username` is a
// picture), how it is prepared and drawn, and the boxes its images are drawn in.
import type { Canvas } from '@napi-rs/canvas'
import type { NewCanvas } from '../canvas-pool.js'
import type { OutputFormat } from '../draw.js'
import type { FontRegistry } from '../fonts.js'
import type { ImageSource } from '../image-source.js'

export const MAX_FIELD_LENGTH = 2000

export interface TemplateDeps { fonts: FontRegistry, images: ImageSource }
export type TemplateFields = Record<string, string | undefined>
/**
 * Draws a prepared picture on a canvas made by `newCanvas` (the server's pool, or
 * createCanvas): CPU work only, nothing left to wait for.
 */
export type Draw = ((newCanvas: NewCanvas) => Canvas) & {
  /** The canvas's size, known before drawing (the budgets of an animation: src/generation/timeline.ts). */
  width: number
  height: number
}

/** A drawing function with its canvas's size. */
export function sized (width: number, height: number, draw: (newCanvas: NewCanvas) => Canvas): Draw {
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
}

export interface Template {
  name: string
  summary: string
  defaultFormat: OutputFormat
  fields: Record<string, FieldDoc>
  /**
   * Checks the fields and fetches and decodes every image they name (URLs, assets);
   * the returned function draws. The split keeps network waits out of the render
   * slot: a slow avatar server must not hold a CPU slot other requests could use.
   */
  prepare (deps: TemplateDeps, fields: TemplateFields): Promise<Draw>
  /**
   * The box each image field is drawn in (cover): a larger image is decoded shrunk to
   * it (src/generation/render-job.ts), so a 5000×5000 avatar never becomes 100 MB of pixels.
   */
  imageBoxes: Record<string, { width: number, height: number }>
}
