// CIEDE2000 colour difference, on plain CIELAB numbers, as published by Sharma, Wu and
// Dalal, "The CIEDE2000 Color-Difference Formula: Implementation Notes, Supplementary
// Test Data, and Mathematical Observations", Color Research & Application 30(1), 2005
// (equations 1-22; kL = kC = kH = 1). Written on numbers rather than through culori's
// object-based differenceCiede2000 because the nearest-name index calls it in its inner
// loop and derives its pruning bounds (nearest-index.ts) from these exact terms; the
// tests check it against the paper's 34 test pairs and against culori.

const DEG = Math.PI / 180
const POW25_7 = 25 ** 7

/** G of equation 4 for a mean unprimed chroma: the a* stretch near neutral. */
export function gOf (meanChroma: number): number {
  const c7 = meanChroma ** 7
  return 0.5 * (1 - Math.sqrt(c7 / (c7 + POW25_7)))
}

/** Hue angle in degrees, 0..360, 0 for the neutral axis (Sharma eq. 5 and note 1). */
function hueDeg (b: number, ap: number): number {
  if (b === 0 && ap === 0) return 0
  const h = Math.atan2(b, ap) / DEG
  return h < 0 ? h + 360 : h
}

export function ciede2000 (L1: number, a1: number, b1: number, L2: number, a2: number, b2: number): number {
  const C1 = Math.sqrt(a1 * a1 + b1 * b1)
  const C2 = Math.sqrt(a2 * a2 + b2 * b2)
  const G = gOf((C1 + C2) / 2)
  const a1p = (1 + G) * a1
  const a2p = (1 + G) * a2
  const C1p = Math.sqrt(a1p * a1p + b1 * b1)
  const C2p = Math.sqrt(a2p * a2p + b2 * b2)
  const h1p = hueDeg(b1, a1p)
  const h2p = hueDeg(b2, a2p)

  const dLp = L2 - L1
  const dCp = C2p - C1p
  const CpProd = C1p * C2p
  let dhp = 0
  if (CpProd !== 0) {
    dhp = h2p - h1p
    if (dhp > 180) dhp -= 360
    else if (dhp < -180) dhp += 360
  }
  const dHp = 2 * Math.sqrt(CpProd) * Math.sin((dhp / 2) * DEG)

  const Lbp = (L1 + L2) / 2
  const Cbp = (C1p + C2p) / 2
  let hbp = h1p + h2p
  if (CpProd !== 0) {
    if (Math.abs(h1p - h2p) <= 180) hbp = (h1p + h2p) / 2
    else hbp = (h1p + h2p < 360) ? (h1p + h2p + 360) / 2 : (h1p + h2p - 360) / 2
  }

  const T = 1 - 0.17 * Math.cos((hbp - 30) * DEG) + 0.24 * Math.cos(2 * hbp * DEG) +
    0.32 * Math.cos((3 * hbp + 6) * DEG) - 0.20 * Math.cos((4 * hbp - 63) * DEG)
  const dTheta = 30 * Math.exp(-(((hbp - 275) / 25) ** 2))
  const Cbp7 = Cbp ** 7
  const RC = 2 * Math.sqrt(Cbp7 / (Cbp7 + POW25_7))
  const Lb50sq = (Lbp - 50) ** 2
  const SL = 1 + (0.015 * Lb50sq) / Math.sqrt(20 + Lb50sq)
  const SC = 1 + 0.045 * Cbp
  const SH = 1 + 0.015 * Cbp * T
  const RT = -Math.sin(2 * dTheta * DEG) * RC

  const l = dLp / SL
  const c = dCp / SC
  const h = dHp / SH
  return Math.sqrt(Math.max(0, l * l + c * c + h * h + RT * c * h))
}
