// What the statistical tests of gif picks share: a seeded generator, so a test sees a
// fixed sequence, and Pearson's chi-square statistic against a uniform spread.

/** mulberry32: a small seeded generator of numbers in [0, 1). */
export function seeded (seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Chi-square of `counts` against every bucket expecting total / counts.length. */
export function chiSquare (counts: number[], total: number): number {
  const expected = total / counts.length
  return counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0)
}
