// Nearest colour by CIEDE2000 among a fixed set of colours, without scanning the set.
//
// CIEDE2000 is not a metric (it breaks the triangle inequality), so a vantage-point tree
// over it could miss the true nearest colour. Instead: a k-d tree over CIELAB, searched
// branch-and-bound, where a subtree is skipped only when a LOWER BOUND of the CIEDE2000
// distance from the query to every colour in it exceeds the best distance found. The
// bound is derived from the formula's own terms (Sharma, Wu, Dalal 2005, eqs. 1-22):
//
//   ΔE00² = l² + c² + h² + RT·c·h,  l = ΔL'/SL, c = ΔC'/SC, h = ΔH'/SH
//         ≥ l² + (1 − |RT|/2)(c² + h²)                    since |c·h| ≤ (c² + h²)/2
//   ΔC'² + ΔH'² = (1+G)²Δa² + Δb² ≥ Δa² + Δb²             (ΔH' = 2√(C1'C2')·sin(Δh'/2))
//   SH = 1 + 0.015·C̄'·T ≤ SC = 1 + 0.045·C̄'               since T ≤ 1+.17+.24+.32+.20 < 3
//   C̄' ≤ (1+G(C̄))·C̄, increasing in C̄ (derivative ≥ 0.5), C̄ ≤ (C1 + Cmax)/2
//   |RT| ≤ RC(C̄'max)·sin 60°                                 since Δθ ≤ 30°
//   SL grows with |L̄ − 50|: its maximum over the subtree is at an end of the L range
//
// so with box distances dL, da, db from the query to the subtree's bounding box and Cmax,
// Lmin, Lmax of the subtree's colours:
//   ΔE00 ≥ √( dL²/SLmax² + (1 − |RT|max/2)·(da² + db²)/SCmax² ).
// The test suite checks, on thousands of seeded random colours, that the answer equals a
// full scan (same colour, same distance, ties to the lower index as the scan does).
import { ciede2000, gOf } from './ciede2000.js'

/** Colours per leaf: small leaves prune finely; this balances bound cost and scans. */
const LEAF_SIZE = 8
/** Float rounding margin on the lower bound: never prune what rounding might admit. */
const BOUND_SAFETY = 1 - 1e-9
const SIN60 = Math.sin(Math.PI / 3)

interface Node {
  /** Bounding box of the subtree's colours. */
  minL: number,
  maxL: number,
  minA: number,
  maxA: number,
  minB: number,
  maxB: number
  /** Largest chroma C*ab in the subtree. */
  maxC: number
  /** Leaf: the colours' indices; inner: undefined. */
  items?: Int32Array
  left?: Node
  right?: Node
}

export interface NearestResult {
  /** Index into the colours the index was built from. */
  index: number
  /** CIEDE2000 distance. */
  distance: number
}

export interface NearestIndex {
  readonly size: number
  nearest (L: number, a: number, b: number): NearestResult
}

/** Packed CIELAB triples: [L0, a0, b0, L1, a1, b1, ...]. */
export type LabTriples = Float64Array

/** The reference: every colour compared, ties to the lower index. */
export function nearestByScan (lab: LabTriples, L: number, a: number, b: number): NearestResult {
  let best = Infinity
  let index = -1
  for (let i = 0, n = lab.length / 3; i < n; i++) {
    const d = ciede2000(L, a, b, lab[3 * i]!, lab[3 * i + 1]!, lab[3 * i + 2]!)
    if (d < best) { best = d; index = i }
  }
  return { index, distance: best }
}

function slOf (meanL: number): number {
  const x = (meanL - 50) ** 2
  return 1 + (0.015 * x) / Math.sqrt(20 + x)
}

export function createNearestIndex (lab: LabTriples): NearestIndex {
  const n = lab.length / 3
  if (n === 0 || !Number.isInteger(n)) throw new Error('nearest index needs at least one L,a,b triple')
  const chroma = new Float64Array(n)
  for (let i = 0; i < n; i++) chroma[i] = Math.hypot(lab[3 * i + 1]!, lab[3 * i + 2]!)

  function build (ids: number[]): Node {
    const node: Node = { minL: Infinity, maxL: -Infinity, minA: Infinity, maxA: -Infinity, minB: Infinity, maxB: -Infinity, maxC: 0 }
    for (const i of ids) {
      const L = lab[3 * i]!; const A = lab[3 * i + 1]!; const B = lab[3 * i + 2]!
      if (L < node.minL) node.minL = L
      if (L > node.maxL) node.maxL = L
      if (A < node.minA) node.minA = A
      if (A > node.maxA) node.maxA = A
      if (B < node.minB) node.minB = B
      if (B > node.maxB) node.maxB = B
      if (chroma[i]! > node.maxC) node.maxC = chroma[i]!
    }
    if (ids.length <= LEAF_SIZE) {
      node.items = Int32Array.from(ids)
      return node
    }
    // Split the widest side at the median.
    const spans = [node.maxL - node.minL, node.maxA - node.minA, node.maxB - node.minB]
    const axis = spans[0]! >= spans[1]! && spans[0]! >= spans[2]! ? 0 : spans[1]! >= spans[2]! ? 1 : 2
    ids.sort((x, y) => lab[3 * x + axis]! - lab[3 * y + axis]!)
    const mid = ids.length >> 1
    node.left = build(ids.slice(0, mid))
    node.right = build(ids.slice(mid))
    return node
  }
  const root = build(Array.from({ length: n }, (_, i) => i))

  /** The lower bound of CIEDE2000 from the query to any colour in the node (see top). */
  function lowerBound (node: Node, L: number, a: number, b: number, C: number): number {
    const dL = L < node.minL ? node.minL - L : L > node.maxL ? L - node.maxL : 0
    const da = a < node.minA ? node.minA - a : a > node.maxA ? a - node.maxA : 0
    const db = b < node.minB ? node.minB - b : b > node.maxB ? b - node.maxB : 0
    if (dL === 0 && da === 0 && db === 0) return 0
    const meanC = (C + node.maxC) / 2
    const meanCp = (1 + gOf(meanC)) * meanC
    const cp7 = meanCp ** 7
    const rcMax = 2 * Math.sqrt(cp7 / (cp7 + 25 ** 7))
    const sc = 1 + 0.045 * meanCp
    const sl = Math.max(slOf((L + node.minL) / 2), slOf((L + node.maxL) / 2))
    const k = 1 - (rcMax * SIN60) / 2
    return Math.sqrt((dL * dL) / (sl * sl) + (k * (da * da + db * db)) / (sc * sc)) * BOUND_SAFETY
  }

  return {
    size: n,
    nearest (L, a, b) {
      const C = Math.hypot(a, b)
      let best = Infinity
      let bestIndex = -1
      const visit = (node: Node): void => {
        if (node.items) {
          for (const i of node.items) {
            const d = ciede2000(L, a, b, lab[3 * i]!, lab[3 * i + 1]!, lab[3 * i + 2]!)
            if (d < best || (d === best && i < bestIndex)) { best = d; bestIndex = i }
          }
          return
        }
        const lbL = lowerBound(node.left!, L, a, b, C)
        const lbR = lowerBound(node.right!, L, a, b, C)
        // Nearer child first; a subtree is skipped only when no colour in it can be
        // strictly closer (an equal one could still win the tie on a lower index).
        if (lbL <= lbR) {
          if (lbL <= best) visit(node.left!)
          if (lbR <= best) visit(node.right!)
        } else {
          if (lbR <= best) visit(node.right!)
          if (lbL <= best) visit(node.left!)
        }
      }
      visit(root)
      return { index: bestIndex, distance: best }
    }
  }
}
