// Small gifs that differ from each other in look, not only in bytes: random blocks from
// a seeded generator, so their perceptual hashes are far apart (no near-duplicates among
// them), each a few hundred bytes.
import sharp from 'sharp'
import { runCli } from '../../src/cli/main.js'

function random (seed: number): () => number {
  let s = (seed * 2654435761) >>> 0 || 1
  return () => {
    s ^= s << 13; s >>>= 0
    s ^= s >>> 17
    s ^= s << 5; s >>>= 0
    return s / 0x100000000
  }
}

/** A still gif of 8×6 random grey-to-colour blocks, scaled to width × height. */
export async function noiseGif (seed: number, width = 32, height = 24): Promise<Buffer> {
  const next = random(seed + 1)
  const cells = Buffer.alloc(8 * 6 * 3)
  for (let i = 0; i < cells.length; i++) cells[i] = Math.floor(next() * 256)
  return await sharp(cells, { raw: { width: 8, height: 6, channels: 3 } })
    .resize(width, height, { kernel: 'nearest' })
    .gif()
    .toBuffer()
}

/** `npm run cli -- gifs …` in process, with the environment `env()` gives at each call: its exit code and what it printed. */
export function gifsCli (env: () => Record<string, string>): (...argv: string[]) => Promise<{ code: number, out: string, err: string }> {
  return async (...argv) => {
    const out: string[] = []
    const err: string[] = []
    const code = await runCli(['gifs', ...argv], { LOG_LEVEL: 'silent', ...env() }, {
      out: (t) => out.push(t), err: (t) => err.push(t), interactive: false
    })
    return { code, out: out.join('\n'), err: err.join('\n') }
  }
}
