// The images a picture is made of, in the two phases of making it (docs/architecture.md,
// "Which thread runs what"). A template or a /gen/custom description is prepared twice
// by the same code: on the event loop, where its images are their sizes only (read from
// the fetched bytes' headers: render-job.ts), and in the thread that draws, where they
// are decoded (drawer.ts). Only the second can be drawn: drawing asks for Pixels, which
// only that thread has.
import type { Canvas, Image } from '@napi-rs/canvas'

/** An image as the canvas draws it: decoded, in the thread that draws. */
export type Drawable = Canvas | Image

/** What every phase knows of an image: its size. */
export interface Sized {
  readonly width: number
  readonly height: number
}

/**
 * Turns the images a picture was prepared with into what the canvas draws. The thread
 * that draws prepares with decoded images and hands `drawn`; the event loop, which
 * prepares with sizes, has none, so what it prepared cannot be drawn.
 */
export interface Pixels<I> {
  (image: I): Drawable
  (image: I | undefined): Drawable | undefined
}

/** The decoded images of the thread that draws are already pixels. */
export function drawn (image: Drawable): Drawable
export function drawn (image: Drawable | undefined): Drawable | undefined
export function drawn (image: Drawable | undefined): Drawable | undefined {
  return image
}

// A shrunk image (render-job.ts) is drawn from fewer pixels than it has: layout (aspect
// ratios, a base's canvas size) goes by the size the image was sent at.
const naturalSizes = new WeakMap<object, Sized>()

export function setNaturalSize (image: Drawable, width: number, height: number): void {
  naturalSizes.set(image, { width, height })
}

/** The image's size as sent, whatever resolution it was decoded at. */
export function naturalSize (image: Sized): Sized {
  return naturalSizes.get(image) ?? image
}
