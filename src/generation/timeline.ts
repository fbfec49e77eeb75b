// The frames of an animated picture (docs/generation.md, "Animated pictures"): when
// one of a picture's images is an animated GIF or WebP and the output can move (GIF,
// WebP), the picture is drawn once per frame of its longest animation, with that
// animation's delays; every other animated image shows, at each frame's time, the frame
// it would show itself (looping). Plain data and arithmetic: the main thread plans the
// frames before the work is admitted (render-job.ts), the thread that draws follows them.
import { AppError } from '../errors.js'

/** Frames a picture draws at most: above, consecutive frames are merged (their delays summed). */
export const MAX_ANIMATION_FRAMES = 60
/**
 * Pixels drawn for an animation at most, frames × canvas: 52 frames of a 1024×450
 * welcome card. Drawing and encoding cost in proportion to them, and the whole animation
 * must be drawn and encoded within WORK_TIMEOUT_MS (docs/generation.md, "Animated
 * pictures", measured). Above, frames are merged as for MAX_ANIMATION_FRAMES.
 */
export const MAX_ANIMATION_PIXELS = 24_000_000
/**
 * A frame delay below this is drawn at DEFAULT_DELAY_MS, as browsers do (a GIF delay of
 * 0 or 1 centisecond plays at 10 frames a second in Chrome and Firefox).
 */
const MIN_DELAY_MS = 20
const DEFAULT_DELAY_MS = 100

/** `animated`: auto (move when an image moves and the output can), on (the same, and refused for png or jpg), off (a still). */
export type AnimatedMode = 'auto' | 'on' | 'off'

export function parseAnimated (value: unknown, field = 'animated'): AnimatedMode {
  if (value === undefined || value === null || value === '') return 'auto'
  const v = String(value).trim().toLowerCase()
  if (v === 'auto') return 'auto'
  if (v === 'on' || v === 'true' || v === 'yes' || v === '1') return 'on'
  if (v === 'off' || v === 'false' || v === 'no' || v === '0') return 'off'
  throw new AppError('VALIDATION', `Invalid "${field}": "${String(value).slice(0, 20)}"; use auto, true or false`, { details: { field } })
}

/** The delays of an image's frames as they are played. */
export function playedDelays (delays: readonly number[] | undefined, frames: number): number[] {
  return Array.from({ length: frames }, (_, i) => {
    const d = delays?.[i] ?? 0
    return d < MIN_DELAY_MS ? DEFAULT_DELAY_MS : d
  })
}

export interface Timeline {
  /** Each frame's delay in ms. */
  delays: number[]
  /** Each frame's start, in ms from the first. */
  starts: number[]
  /** Frames merged to fit the budgets. */
  merged: boolean
}

/**
 * The picture's frames: those of the longest of `animations` (each image's frame
 * delays), merged by runs when they are more than the budgets allow for a canvas of
 * `canvasPixels`.
 */
export function planTimeline (animations: ReadonlyArray<readonly number[]>, canvasPixels: number): Timeline {
  const duration = (d: readonly number[]): number => d.reduce((a, b) => a + b, 0)
  let longest = animations[0] ?? [DEFAULT_DELAY_MS]
  for (const a of animations) if (duration(a) > duration(longest)) longest = a
  const most = Math.max(1, Math.min(MAX_ANIMATION_FRAMES, Math.floor(MAX_ANIMATION_PIXELS / Math.max(1, canvasPixels))))
  let delays = [...longest]
  const merged = delays.length > most
  if (merged) {
    const step = Math.ceil(delays.length / most)
    const out: number[] = []
    for (let i = 0; i < delays.length; i += step) out.push(duration(delays.slice(i, i + step)))
    delays = out
  }
  return { delays, starts: startsOf(delays), merged }
}

export function startsOf (delays: readonly number[]): number[] {
  const starts: number[] = []
  let t = 0
  for (const d of delays) { starts.push(t); t += d }
  return starts
}

/** The frame an animation with `delays` shows at `ms`, looping. */
export function frameAt (delays: readonly number[], ms: number): number {
  const total = delays.reduce((a, b) => a + b, 0)
  if (total <= 0) return 0
  let t = ms % total
  for (let i = 0; i < delays.length; i++) {
    if (t < delays[i]!) return i
    t -= delays[i]!
  }
  return delays.length - 1
}
