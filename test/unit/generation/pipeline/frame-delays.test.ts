// Frames longer than sharp's GIF and WebP writers take (issue 35, item 3): every frame stack
// is split to at most MAX_FRAME_DELAY_MS a frame before it is drawn or encoded again,
// keeping the animation's length wherever the frame budget allows. The built server's
// answers are tested in test/system/hostile/frame-delays.test.ts.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { frameBudget, MAX_ANIMATION_FRAMES, MAX_CENTISECOND_PIECE_MS, MAX_FRAME_DELAY_MS, planTimeline, splitFrames } from '../../../../src/generation/pipeline/timeline.js'

const sum = (delays: readonly number[]): number => delays.reduce((a, b) => a + b, 0)
const SMALL_CANVAS = 64 * 64
const CARD = 1024 * 450

function assertWritable (delays: readonly number[], most: number): void {
  assert.ok(delays.length <= most, `${delays.length} frames, budget ${most}`)
  for (const d of delays) assert.ok(Number.isInteger(d) && d >= 0 && d <= MAX_FRAME_DELAY_MS, `a delay of ${d} ms`)
}

describe('splitFrames', () => {
  it('leaves frames the writers take as they are', () => {
    assert.deepEqual(splitFrames([100, 65_535, 0], 60), { delays: [100, 65_535, 0], frames: [0, 1, 2] })
  })

  it('splits a longer frame into equal ones, in whole hundredths when the delay is in them', () => {
    assert.deepEqual(splitFrames([100, 70_000, 100], 60), { delays: [100, 35_000, 35_000, 100], frames: [0, 1, 1, 2] })
    assert.deepEqual(splitFrames([131_070], 60), { delays: [43_690, 43_690, 43_690], frames: [0, 0, 0] })
    const odd = splitFrames([130_005], 60)
    assert.deepEqual(odd, { delays: [65_003, 65_002], frames: [0, 0] })
  })

  it('within the budget: the spare frames go to the frames that would lose the most, the rest cut', () => {
    // Three frames of 200 s need 4 pieces each; 8 frames allow 5 pieces more.
    const split = splitFrames([200_000, 100, 300_000], 8)
    assertWritable(split.delays, 8)
    assert.deepEqual(split.frames, [0, 0, 0, 1, 2, 2, 2, 2])
    assert.equal(sum(split.delays.slice(4)), 4 * MAX_CENTISECOND_PIECE_MS, 'the longest frame kept as long as 4 frames can be')
    assert.equal(sum(split.delays.slice(0, 3)), 3 * MAX_CENTISECOND_PIECE_MS)
    // No spare frame at all: each frame cut to the longest piece.
    assert.deepEqual(splitFrames([200_000, 70_001], 2).delays, [MAX_CENTISECOND_PIECE_MS, MAX_FRAME_DELAY_MS])
  })
})

describe('planTimeline with long frames', () => {
  it('an avatar with one 66 s frame: drawn as two frames of 33 s, the animation as long', () => {
    const plan = planTimeline([[100, 66_000, 100]], CARD)
    assert.deepEqual(plan.delays, [100, 33_000, 33_000, 100])
    assert.deepEqual(plan.starts, [0, 100, 33_100, 66_100])
    assert.equal(plan.merged, false)
  })

  it('61 frames of 40 s: merged further than the budget alone asks, so that every merged frame can be split, none cut', () => {
    const forty = Array.from({ length: 61 }, () => 40_000)
    const plan = planTimeline([forty], SMALL_CANVAS)
    assertWritable(plan.delays, MAX_ANIMATION_FRAMES)
    assert.equal(plan.merged, true)
    assert.equal(sum(plan.delays), 61 * 40_000)
  })

  it('keeps the length exact whenever the budget can hold it in pieces of the longest hundredths, for any canvas', () => {
    let exact = 0
    for (const canvas of [SMALL_CANVAS, CARD, 3000 * 3000]) {
      const most = frameBudget(canvas)
      // The longest GIF delay; 30 and 500 frames, each a little different; the longest WebP delay.
      for (const [count, delay] of [[2, 655_350], [30, 100_000], [500, 7_000], [7, 16_777_215]] as const) {
        const delays = Array.from({ length: count }, (_, i) => delay - i)
        const plan = planTimeline([delays], canvas)
        assertWritable(plan.delays, most)
        if (Math.floor(sum(delays) / MAX_CENTISECOND_PIECE_MS) < most) {
          assert.equal(sum(plan.delays), sum(delays), `${count} frames of ${delay} ms on ${canvas} pixels`)
          exact++
        }
      }
    }
    assert.equal(exact, 6, 'the cases the budget can hold: three on each of the two smaller canvases')
  })

  it('100,000 frames of 100 ms: longer than the budget can hold, each frame as long as the writers take', () => {
    const plan = planTimeline([Array.from({ length: 100_000 }, () => 100)], SMALL_CANVAS)
    assert.deepEqual(plan.delays, Array.from({ length: MAX_ANIMATION_FRAMES }, () => MAX_CENTISECOND_PIECE_MS))
    assert.equal(plan.merged, true)
  })
})
