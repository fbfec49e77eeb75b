// The frames of an animated picture (drawer.ts) drawn without repainting what does not
// move: what a picture paints before its first moving image (the background, a banner,
// a shaded panel, an avatar's ring) is painted once, and each frame starts from a copy
// of it. A template or a custom description is drawing code, not a list of layers: its
// canvas is handed a context that counts the calls that paint. The first pass paints up
// to the first drawImage of a moving image and keeps the pixels; every frame then skips
// the paints before that one (the state they set, clips, transforms and styles, still
// applies) and paints the rest. Deterministic drawing code paints in the same order each
// time, which the templates and custom.ts are.
import type { Canvas, SKRSContext2D } from '@napi-rs/canvas'
import { type Drawable, drawn } from '../drawable.js'
import type { CanvasPool } from '../canvas/canvas-pool.js'
import type { Draw } from '../templates/template.js'

/** The context's methods that change pixels; everything else sets state or measures. */
const PAINTS: ReadonlySet<string | symbol> = new Set(['fill', 'stroke', 'fillRect', 'strokeRect', 'clearRect', 'fillText', 'strokeText', 'drawImage', 'putImageData'])

/**
 * Draws a picture's frames: `frame()` draws the next frame on a canvas of `canvases`
 * (the caller releases it) after the caller has shown the moving images' frames.
 * `moving` holds the images that change between frames.
 */
export function createFrameDrawer (draw: Draw<Drawable>, moving: ReadonlySet<unknown>, canvases: CanvasPool): { frame: () => Canvas } {
  let firstMoving: number | undefined
  let background: ReturnType<SKRSContext2D['getImageData']> | undefined

  /** Runs the drawing code with a context whose paints `paint(index, isMoving)` lets through. */
  function run (paint: (index: number, movingImage: boolean) => boolean, prepare?: (ctx: SKRSContext2D) => void): Canvas {
    let real: Canvas | undefined
    let paints = 0
    draw((width, height) => {
      // The first canvas a drawing makes is the picture; a later one is its scratch (a
      // sample of an image, template.ts), painted in full each time, never counted.
      if (real !== undefined) return canvases.acquire(width, height)
      const canvas = canvases.acquire(width, height)
      real = canvas
      const ctx = canvas.getContext('2d')
      prepare?.(ctx)
      const counted = new Proxy(ctx, {
        get (target, prop) {
          const value = Reflect.get(target, prop, target) as unknown
          if (typeof value !== 'function') return value
          if (!PAINTS.has(prop)) return value.bind(target)
          return (...args: unknown[]) => {
            const index = paints++
            if (paint(index, prop === 'drawImage' && moving.has(args[0]))) return (value as (...a: unknown[]) => unknown).apply(target, args)
          }
        },
        set: (target, prop, value) => Reflect.set(target, prop, value, target)
      })
      return new Proxy(canvas, {
        get (target, prop) {
          if (prop === 'getContext') return () => counted
          const value = Reflect.get(target, prop, target) as unknown
          return typeof value === 'function' ? value.bind(target) : value
        }
      })
    }, drawn)
    return real!
  }

  return {
    frame () {
      if (background === undefined) {
        // The first pass: paints up to the first moving image, kept as the background.
        const canvas = run((index, isMoving) => {
          if (isMoving && firstMoving === undefined) firstMoving = index
          return firstMoving === undefined
        })
        background = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height)
        canvases.release(canvas)
        firstMoving ??= Infinity
      }
      const start = firstMoving!
      const bg = background
      return run((index) => index >= start, (ctx) => ctx.putImageData(bg, 0, 0))
    }
  }
}
