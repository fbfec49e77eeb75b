// How long a heavy job will run, estimated before it starts from what it brings (pixels,
// characters) and kept current from the times observed. Per kind of job, a prior shape
// (a fixed part and a part per unit, measured on a 2-core machine: bench/bursts.bench.ts
// prints the figures observed) times a scale, the exponentially weighted mean of observed
// time over the prior's estimate (the last few dozen jobs weigh most): on faster or slower
// hardware, or under a load that slows every job, the scale follows within a few jobs.
// The scheduler (scheduler.ts) admits and orders work by these estimates.

export interface CostPrior {
  /** Time a job of this kind takes whatever its size, in ms. */
  baseMs: number
  /** Time per unit (pixel, character) beyond that, in ms. */
  msPerUnit: number
}

export interface CostModel<K extends string> {
  /** Expected running time of a job of `kind` with `units`, in ms. */
  estimate (kind: K, units: number): number
  /** Records what a job took: later estimates of its kind move towards it. */
  observe (kind: K, units: number, ms: number): void
  /** Observed time over the prior's estimate, per kind (metrics, the bench). */
  readonly scales: Record<K, number>
}

/** Weight of the newest observation in the mean. */
export const COST_SMOOTHING = 0.1
/** An observation counts as at most this factor of the current estimate either way: one stall (a GC, a descheduled thread) cannot swing it. */
export const MAX_STEP_FACTOR = 4

export function createCostModel<K extends string> (priors: Record<K, CostPrior>): CostModel<K> {
  const scales = Object.fromEntries(Object.keys(priors).map((k) => [k, 1])) as Record<K, number>
  const prior = (kind: K, units: number): number => priors[kind].baseMs + priors[kind].msPerUnit * Math.max(0, units)
  return {
    scales,
    estimate: (kind, units) => scales[kind] * prior(kind, units),
    observe (kind, units, ms) {
      const expected = prior(kind, units)
      if (!(expected > 0) || !Number.isFinite(ms) || ms < 0) return
      const ratio = Math.min(scales[kind] * MAX_STEP_FACTOR, Math.max(scales[kind] / MAX_STEP_FACTOR, ms / expected))
      scales[kind] += COST_SMOOTHING * (ratio - scales[kind])
    }
  }
}
