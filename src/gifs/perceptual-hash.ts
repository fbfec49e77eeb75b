// A perceptual hash of a gif, to notice the same gif re-encoded, resized or
// re-quantised, which the SHA-256 of its bytes cannot: a 64-bit difference hash (dHash,
// N. Krawetz, "Kind of Like That", 2013) of three frames (the first, the middle and the
// last), each frame flattened on grey, shrunk to 9×8 grey pixels by libvips (sharp), one
// bit per pair of horizontal neighbours (left brighter than right). Resizing and
// re-encoding keep the gradients' signs; other art does not. Written here rather than
// taken from a library: the npm perceptual-hash packages hash one still image (the first
// frame of a gif) and bring their own decoder, where sharp already decodes every frame.
import sharp from 'sharp'

/** Frames hashed per gif: first, middle, last (the same frame three times for a still gif). */
export const PHASH_FRAMES = 3
const BITS_PER_FRAME = 64
/** Hex digits of a stored hash: 16 per frame. */
export const PHASH_LENGTH = PHASH_FRAMES * BITS_PER_FRAME / 4
export const PHASH_PATTERN = /^[0-9a-f]{48}$/
/**
 * Two gifs whose hashes differ in at most this many of their 192 bits are near-duplicates
 * (6 bits per frame; 10 of 64 is the threshold usually given for one dHash, lowered
 * because three frames must all agree). Measured on the starter art (96×64, 10 frames):
 * the same gif resized to 80 % and re-encoded with 64 colours differs by 5 bits, enlarged
 * twice with dithering by 2; different art by 23 to 113, except two gifs that share one
 * background and differ only by a small word drawn on it (12): near enough to be reported
 * (test/unit/gifs/perceptual-hash.test.ts).
 */
export const NEAR_DUPLICATE_MAX_DISTANCE = 18

/** The frame positions hashed for a gif of `frames` frames. */
function framesToHash (frames: number): number[] {
  const last = Math.max(0, frames - 1)
  return [0, Math.floor(last / 2), last]
}

async function frameHash (bytes: Uint8Array, page: number): Promise<string> {
  const { data, info } = await sharp(bytes, { page, pages: 1, limitInputPixels: false })
    .flatten({ background: '#808080' })
    .greyscale()
    .resize(9, 8, { fit: 'fill', kernel: 'cubic' })
    .raw()
    .toBuffer({ resolveWithObject: true })
  const channels = info.channels
  let bits = 0n
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      const left = data[(y * 9 + x) * channels]!
      const right = data[(y * 9 + x + 1) * channels]!
      bits = (bits << 1n) | (left > right ? 1n : 0n)
    }
  }
  return bits.toString(16).padStart(16, '0')
}

/** The perceptual hash of a GIF already checked by inspectGif: 48 hex digits. */
export async function perceptualHash (bytes: Uint8Array, frames: number): Promise<string> {
  const parts: string[] = []
  for (const page of framesToHash(frames)) parts.push(await frameHash(bytes, page))
  return parts.join('')
}

/** Number of differing bits between two hashes (0..192); Infinity when either is not a hash of this kind. */
export function hammingDistance (a: string, b: string): number {
  if (!PHASH_PATTERN.test(a) || !PHASH_PATTERN.test(b)) return Number.POSITIVE_INFINITY
  let distance = 0
  for (let i = 0; i < PHASH_LENGTH; i += 8) {
    let x = (Number.parseInt(a.slice(i, i + 8), 16) ^ Number.parseInt(b.slice(i, i + 8), 16)) >>> 0
    while (x !== 0) {
      x &= x - 1
      distance++
    }
  }
  return distance
}

export function isNearDuplicate (a: string, b: string, maxDistance = NEAR_DUPLICATE_MAX_DISTANCE): boolean {
  return hammingDistance(a, b) <= maxDistance
}
