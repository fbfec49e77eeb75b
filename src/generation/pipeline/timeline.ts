// The frames of an animated picture (docs/generation.md, "Animated pictures"): when
// one of a picture's images is an animated GIF or WebP and the output can move (GIF,
// WebP), the picture is drawn once per frame of its longest animation, with that
// animation's delays; every other animated image shows, at each frame's time, the frame
// it would show itself (looping). Plain data and arithmetic: the main thread plans the
// frames before the work is admitted (render-job.ts), the thread that draws follows them.
import { AppError } from '../../errors.js'

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
 * The longest frame sharp's GIF and WebP writers take: their `delay` option is 0 to 65,535
 * ms a frame (sharp's lib/output.js refuses more), though a GIF may say 655,350 ms (16 bits
 * of hundredths, GIF89a section 23) and a WebP frame 16,777,215 ms (24 bits). A longer
 * frame is drawn as several frames of the same moment (splitFrames): libvips' GIF writer
 * and libwebp's animation encoder join identical consecutive frames again, adding their
 * delays (where nothing else moves meanwhile the file is no larger), and it plays exactly
 * as long.
 */
export const MAX_FRAME_DELAY_MS = 65_535
/**
 * A delay in whole hundredths of a second (every GIF's) is split in whole hundredths,
 * which a GIF keeps exactly: pieces of at most this. An animation longer than the frame
 * budget can hold in such pieces (60 of them: 65.5 minutes) is cut to it.
 */
export const MAX_CENTISECOND_PIECE_MS = 65_530
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

/** The frames an animation of a canvas of `canvasPixels` may have: MAX_ANIMATION_FRAMES, fewer for a canvas so large that MAX_ANIMATION_PIXELS is reached first. */
export function frameBudget (canvasPixels: number): number {
  return Math.max(1, Math.min(MAX_ANIMATION_FRAMES, Math.floor(MAX_ANIMATION_PIXELS / Math.max(1, canvasPixels))))
}

/**
 * The picture's frames: those of the longest of `animations` (each image's frame
 * delays), merged by runs when they are more than the budgets allow for a canvas of
 * `canvasPixels`, and a frame longer than the writers take split (splitFrames). Runs are
 * merged further when that leaves the budget room to split every long frame: the
 * animation then lasts exactly as long as its image. Only one lasting more than about
 * an hour (60 frames of 65.5 s) is cut.
 */
export function planTimeline (animations: ReadonlyArray<readonly number[]>, canvasPixels: number): Timeline {
  let longest = animations[0] ?? [DEFAULT_DELAY_MS]
  for (const a of animations) if (sum(a) > sum(longest)) longest = a
  const most = frameBudget(canvasPixels)
  // Delays added up once: a run's delay is then one subtraction, and trying a step costs
  // its merged frames, not the animation's (an image may have 100,000 frames).
  const elapsed = new Float64Array(longest.length + 1)
  longest.forEach((d, i) => { elapsed[i + 1] = elapsed[i]! + d })
  let step = Math.ceil(longest.length / most)
  let runs = mergeRuns(elapsed, step)
  if (piecesOf(runs) > most) {
    step = roomyStep(elapsed, step, most)
    runs = mergeRuns(elapsed, step)
  }
  const { delays } = splitFrames(runs, most)
  return { delays, starts: startsOf(delays), merged: step > 1 }
}

/** Frames of `step` consecutive ones merged into one, their delays added; `elapsed[i]`: the delays of the frames before frame i. */
function mergeRuns (elapsed: Float64Array, step: number): number[] {
  const frames = elapsed.length - 1
  const out: number[] = []
  for (let i = 0; i < frames; i += step) out.push(elapsed[Math.min(frames, i + step)]! - elapsed[i]!)
  return out
}

/**
 * A step of merged runs, above `step` (whose merged frames need more than `most` frames
 * once split), after which the long frames can all be split within `most`; `step` itself
 * when no step can (the animation is longer than `most` frames of the longest piece).
 * The frames a merged frame is split into are at most its delay over 65,530 ms rounded
 * down, plus one: a step leaving `most` minus the whole animation's count of such
 * pieces merged frames fits; the smallest fitting step is searched below it.
 */
function roomyStep (elapsed: Float64Array, step: number, most: number): number {
  const frames = elapsed.length - 1
  const whole = Math.floor(elapsed[frames]! / MAX_CENTISECOND_PIECE_MS)
  if (whole >= most) return step
  let fails = step
  let fits = Math.ceil(frames / (most - whole))
  while (fits - fails > 1) {
    const mid = Math.floor((fails + fits) / 2)
    if (piecesOf(mergeRuns(elapsed, mid)) <= most) fits = mid
    else fails = mid
  }
  return fits
}

/** Frames longer than the writers take, split (splitFrames): each frame's delay and the frame it repeats. */
export interface SplitFrames {
  delays: number[]
  /** For each frame, the index of the frame of the input it shows. */
  frames: number[]
}

/** The longest piece a delay is split into: whole hundredths when it is in them. */
function longestPiece (delay: number): number {
  return delay % 10 === 0 ? MAX_CENTISECOND_PIECE_MS : MAX_FRAME_DELAY_MS
}

/** The frames `delays` take once every frame longer than the writers take is split. */
function piecesOf (delays: readonly number[]): number {
  let n = 0
  for (const d of delays) n += Math.max(1, Math.ceil(d / longestPiece(d)))
  return n
}

/**
 * The one rule for a frame the writers cannot take (MAX_FRAME_DELAY_MS): every frame
 * stack passes here before it is drawn (planTimeline) or encoded again (the size
 * budget's fewer frames, output-budget.ts). A longer frame becomes several of equal
 * delays (whole hundredths when it is in them), which keeps the timing exact, while the
 * frames stay within `most`; the spare frames go first to the frames that would lose
 * the most time, and a frame still too long is cut to the longest piece.
 */
export function splitFrames (delays: readonly number[], most: number): SplitFrames {
  const pieces = delays.map(() => 1)
  const lost = (i: number): number => delays[i]! - pieces[i]! * longestPiece(delays[i]!)
  for (let spare = most - delays.length; spare > 0; spare--) {
    let worst = -1
    for (let i = 0; i < delays.length; i++) if (lost(i) > 0 && (worst < 0 || lost(i) > lost(worst))) worst = i
    if (worst < 0) break
    pieces[worst]!++
  }
  const out: SplitFrames = { delays: [], frames: [] }
  delays.forEach((d, i) => {
    const k = pieces[i]!
    const unit = d % 10 === 0 ? 10 : 1
    const units = Math.max(0, Math.round(d / unit))
    for (let j = 0; j < k; j++) {
      const piece = (Math.floor(units / k) + (j < units % k ? 1 : 0)) * unit
      out.delays.push(Math.min(piece, longestPiece(d)))
      out.frames.push(i)
    }
  })
  return out
}

function sum (delays: readonly number[]): number {
  return delays.reduce((a, b) => a + b, 0)
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
