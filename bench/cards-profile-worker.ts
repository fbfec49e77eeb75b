// A thread of bench/cards.bench.ts's own running the drawing thread's code
// (src/work/worker.ts: its priority; src/generation/pipeline/thread.ts: its fonts, drawer.ts), to time the pieces of a card
// where the server draws them: the job drawn and encoded, and the encoding alone (the
// card's own pixels, from its PNG, encoded again). Times of the same thread, so that one
// can be taken from the other. Each message from the bench, { seconds }, is answered
// with { drawMs, encodeMs }: milliseconds a call, one at a time.
import { parentPort, workerData } from 'node:worker_threads'
import '../src/work/worker.js'
import { draw as drawTask } from '../src/generation/pipeline/thread.js'
import { createCanvas, loadImage } from '@napi-rs/canvas'
import { encodeSync } from '../src/generation/canvas/draw.js'
import { nextTurn } from '../src/work/thread.js'
import type { DrawJob } from '../src/generation/pipeline/render-job.js'
import { opsPerSec } from './harness.js'

const { job } = workerData as { job: DrawJob }
const draw = async (): Promise<Uint8Array> => {
  const result = await drawTask({ input: job, startedOn: new Int32Array(new SharedArrayBuffer(4)) })
  if (!result.ok || !(result.value instanceof Uint8Array)) throw new Error(`the card was not drawn: ${JSON.stringify(result)}`)
  return result.value
}
// No top-level await: under tsx the thread loads this file through tsx's CommonJS hook,
// as piscina loads src/work/worker.ts and src/generation/pipeline/thread.ts (src/work/pool.ts).
void (async () => {
  const card = await loadImage(Buffer.from(await draw()))
  const canvas = createCanvas(card.width, card.height)
  canvas.getContext('2d').drawImage(card, 0, 0)
  parentPort!.on('message', ({ seconds }: { seconds: number }) => {
    void (async () => {
      const drawMs = 1000 / await opsPerSec(draw, seconds / 2)
      // Each encoding followed by a turn of the thread's loop, as each job of a drawing
      // thread is (src/work/thread.ts): the encoder's copy of the pixels is freed there.
      // Back to back, the copies piled up and every encoding touched fresh memory: 5 to 8 ms
      // on a VM where that costs, more than the whole job (docs/performance.md).
      const encodeMs = 1000 / await opsPerSec(async () => { encodeSync(canvas, 'png'); await nextTurn() }, seconds / 2)
      parentPort!.postMessage({ drawMs, encodeMs })
    })()
  })
  parentPort!.postMessage({ ready: true })
})()
