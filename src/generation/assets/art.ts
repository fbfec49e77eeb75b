// The project's own banner and icon art, drawn by code (so ours to ship: no files
// from anyone else). Deterministic: a seeded generator, no Math.random.
import type { SKRSContext2D } from '@napi-rs/canvas'

export const BANNER_WIDTH = 1024
export const BANNER_HEIGHT = 450
export const ICON_SIZE = 256

type Draw = (ctx: SKRSContext2D, w: number, h: number) => void

function seeded (seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

function gradient (ctx: SKRSContext2D, h: number, stops: string[], w = 0): void {
  const g = ctx.createLinearGradient(0, 0, w, h)
  stops.forEach((c, i) => g.addColorStop(i / (stops.length - 1), c))
  ctx.fillStyle = g
  ctx.fillRect(0, 0, Math.max(w, ctx.canvas.width), Math.max(h, ctx.canvas.height))
}

function heart (ctx: SKRSContext2D, x: number, y: number, s: number): void {
  ctx.beginPath()
  ctx.moveTo(x, y + s * 0.3)
  ctx.bezierCurveTo(x, y, x - s * 0.5, y, x - s * 0.5, y + s * 0.3)
  ctx.bezierCurveTo(x - s * 0.5, y + s * 0.6, x, y + s * 0.8, x, y + s)
  ctx.bezierCurveTo(x, y + s * 0.8, x + s * 0.5, y + s * 0.6, x + s * 0.5, y + s * 0.3)
  ctx.bezierCurveTo(x + s * 0.5, y, x, y, x, y + s * 0.3)
  ctx.fill()
}

function star (ctx: SKRSContext2D, x: number, y: number, outer: number, inner: number, points = 5): void {
  ctx.beginPath()
  for (let i = 0; i < points * 2; i++) {
    const r = i % 2 === 0 ? outer : inner
    const a = (Math.PI * i) / points - Math.PI / 2
    ctx.lineTo(x + r * Math.cos(a), y + r * Math.sin(a))
  }
  ctx.closePath()
  ctx.fill()
}

function waves (ctx: SKRSContext2D, w: number, h: number, colors: string[], amplitude: number): void {
  colors.forEach((color, i) => {
    const base = h * (0.45 + i * 0.14)
    ctx.fillStyle = color
    ctx.beginPath()
    ctx.moveTo(0, h)
    for (let x = 0; x <= w; x += 8) ctx.lineTo(x, base + Math.sin(x / (90 + i * 25) + i * 1.7) * amplitude)
    ctx.lineTo(w, h)
    ctx.closePath()
    ctx.fill()
  })
}

export const BANNERS: Readonly<Record<string, Draw>> = {
  space (ctx, w, h) {
    gradient(ctx, h, ['#0b0c2a', '#1d1b4f', '#3a1c5c'], w)
    const rnd = seeded(1)
    for (let i = 0; i < 260; i++) {
      ctx.fillStyle = `rgba(255,255,255,${0.3 + rnd() * 0.7})`
      ctx.beginPath(); ctx.arc(rnd() * w, rnd() * h, rnd() * 1.8 + 0.3, 0, Math.PI * 2); ctx.fill()
    }
    const planet = ctx.createRadialGradient(w * 0.82, h * 0.3, 10, w * 0.85, h * 0.35, 110)
    planet.addColorStop(0, '#f6a96b'); planet.addColorStop(1, '#8a3b2e')
    ctx.fillStyle = planet
    ctx.beginPath(); ctx.arc(w * 0.85, h * 0.35, 90, 0, Math.PI * 2); ctx.fill()
  },
  love (ctx, w, h) {
    gradient(ctx, h, ['#ff9a9e', '#fecfef', '#f78ca0'], w)
    const rnd = seeded(2)
    for (let i = 0; i < 40; i++) {
      ctx.fillStyle = `rgba(${200 + Math.floor(rnd() * 55)},${40 + Math.floor(rnd() * 60)},${90 + Math.floor(rnd() * 60)},${0.35 + rnd() * 0.5})`
      heart(ctx, rnd() * w, rnd() * h - 20, 20 + rnd() * 50)
    }
  },
  purplewave (ctx, w, h) {
    gradient(ctx, h, ['#2b1055', '#7597de'])
    waves(ctx, w, h, ['rgba(160,90,255,0.55)', 'rgba(110,50,200,0.65)', 'rgba(60,20,120,0.8)'], 30)
  },
  mountain (ctx, w, h) {
    gradient(ctx, h, ['#ffb88c', '#de6262', '#3a1c71'])
    const rnd = seeded(4)
    const layers = ['#5b2a6e', '#3d1d52', '#22113a']
    layers.forEach((color, i) => {
      ctx.fillStyle = color
      ctx.beginPath(); ctx.moveTo(0, h)
      let y = h * (0.5 + i * 0.12)
      for (let x = 0; x <= w; x += 40) {
        y = Math.min(h * 0.95, Math.max(h * 0.25, y + (rnd() - 0.5) * 90))
        ctx.lineTo(x, y)
      }
      // The ridge reaches the right edge at its last height: when w is not a multiple of
      // the step, going straight down from the last point left a sliver of sky there.
      ctx.lineTo(w, y)
      ctx.lineTo(w, h); ctx.closePath(); ctx.fill()
    })
  },
  wave (ctx, w, h) {
    gradient(ctx, h, ['#89f7fe', '#66a6ff'])
    waves(ctx, w, h, ['rgba(255,255,255,0.35)', 'rgba(30,120,220,0.6)', 'rgba(10,60,150,0.85)'], 24)
  },
  // The cards write white text across the middle from x ≈ 420 and put the avatar at the
  // left: the sky stays dark to mid-tone there, the sun sets at the right and the dark
  // sea starts below the avatar and the last line (a pale sun and the sea's edge behind
  // the text made it unreadable).
  sunset (ctx, w, h) {
    // The horizon below the cards' avatar and last line (y 373 of 450), and the sun's
    // reflection ending above the card's lower edge (y 426): the whole of the sea's
    // glitter lies behind the card's shade, none of it cut by the edge.
    const horizon = h * 0.845
    const sky = ctx.createLinearGradient(0, 0, 0, horizon)
    for (const [at, color] of [[0, '#0f2027'], [0.45, '#5b2a4e'], [0.8, '#b5474b'], [1, '#e9804a']] as const) sky.addColorStop(at, color)
    ctx.fillStyle = sky
    ctx.fillRect(0, 0, w, horizon)
    const glow = ctx.createRadialGradient(w * 0.86, horizon, 10, w * 0.86, horizon, 260)
    glow.addColorStop(0, 'rgba(255,200,120,0.5)'); glow.addColorStop(1, 'rgba(255,200,120,0)')
    ctx.fillStyle = glow
    ctx.fillRect(0, 0, w, horizon)
    ctx.fillStyle = '#ffd68a'
    ctx.beginPath(); ctx.arc(w * 0.86, horizon, 70, Math.PI, 0); ctx.fill()
    ctx.fillStyle = '#1b1b2f'
    ctx.fillRect(0, horizon, w, h - horizon)
    ctx.fillStyle = 'rgba(255,214,138,0.55)'
    for (const [dy, half] of [[5, 58], [12, 44], [19, 31], [26, 19], [33, 9]] as const) ctx.fillRect(w * 0.86 - half, horizon + dy * h / 450, half * 2, 3)
  },
  rainbow (ctx, w, h) {
    const colors = ['#e63946', '#f4a261', '#e9c46a', '#2a9d8f', '#457b9d', '#6a4c93']
    const g = ctx.createLinearGradient(0, 0, w, h)
    colors.forEach((c, i) => g.addColorStop(i / (colors.length - 1), c))
    ctx.fillStyle = g; ctx.fillRect(0, 0, w, h)
    ctx.fillStyle = 'rgba(255,255,255,0.12)'
    for (let x = -h; x < w; x += 60) { ctx.beginPath(); ctx.moveTo(x, h); ctx.lineTo(x + 30, h); ctx.lineTo(x + 30 + h, 0); ctx.lineTo(x + h, 0); ctx.fill() }
  },
  swamp (ctx, w, h) {
    gradient(ctx, h, ['#134e5e', '#71b280'])
    const rnd = seeded(8)
    for (let i = 0; i < 60; i++) {
      ctx.fillStyle = `rgba(${20 + Math.floor(rnd() * 40)},${70 + Math.floor(rnd() * 80)},${40 + Math.floor(rnd() * 40)},0.6)`
      ctx.beginPath(); ctx.ellipse(rnd() * w, h * 0.6 + rnd() * h * 0.4, 30 + rnd() * 80, 8 + rnd() * 20, 0, 0, Math.PI * 2); ctx.fill()
    }
  },
  aurora (ctx, w, h) {
    gradient(ctx, h, ['#000428', '#004e92'])
    for (let i = 0; i < 4; i++) {
      // The glow fades out exactly where the band ends (h * 0.7): a gradient over the
      // whole height left it at two thirds of its strength there, a hard seam.
      const g = ctx.createLinearGradient(0, h * 0.15, 0, h * 0.7)
      g.addColorStop(0, 'rgba(0,255,170,0)'); g.addColorStop(0.45, `rgba(${60 * i},255,${150 + 20 * i},0.35)`)
      // Eased, not linear, towards the end: a linear fade still showed a line where it stopped.
      g.addColorStop(0.75, `rgba(${60 * i},255,${150 + 20 * i},0.12)`); g.addColorStop(0.9, `rgba(${60 * i},255,${150 + 20 * i},0.025)`); g.addColorStop(1, 'rgba(0,255,170,0)')
      ctx.fillStyle = g
      ctx.beginPath(); ctx.moveTo(0, h * 0.2 + i * 30)
      for (let x = 0; x <= w; x += 16) ctx.lineTo(x, h * 0.3 + Math.sin(x / 120 + i) * 50 + i * 25)
      ctx.lineTo(w, h * 0.7); ctx.lineTo(0, h * 0.7); ctx.closePath(); ctx.fill()
    }
  },
  grid (ctx, w, h) {
    gradient(ctx, h, ['#120136', '#035aa6'])
    ctx.strokeStyle = 'rgba(0,255,255,0.35)'; ctx.lineWidth = 2
    for (let x = -w; x < 2 * w; x += 64) { ctx.beginPath(); ctx.moveTo(w / 2, h * 0.45); ctx.lineTo(x, h); ctx.stroke() }
    for (let y = h * 0.5; y < h; y += (y - h * 0.44) * 0.35 + 6) { ctx.beginPath(); ctx.moveTo(0, y); ctx.lineTo(w, y); ctx.stroke() }
  }
}

function disc (ctx: SKRSContext2D, s: number, colors: [string, string]): void {
  const g = ctx.createLinearGradient(0, 0, s, s)
  g.addColorStop(0, colors[0]); g.addColorStop(1, colors[1])
  ctx.fillStyle = g
  ctx.beginPath(); ctx.arc(s / 2, s / 2, s / 2 - 4, 0, Math.PI * 2); ctx.fill()
  ctx.fillStyle = 'white'
}

/** Filled ellipse at fractions of the icon's side. */
function blob (ctx: SKRSContext2D, s: number, x: number, y: number, rx: number, ry: number, color: string, rotation = 0): void {
  ctx.fillStyle = color
  ctx.beginPath(); ctx.ellipse(s * x, s * y, s * rx, s * ry, rotation, 0, Math.PI * 2); ctx.fill()
}

/** Filled polygon through points given as fractions of the icon's side. */
function shape (ctx: SKRSContext2D, s: number, points: ReadonlyArray<readonly [number, number]>, color: string): void {
  ctx.fillStyle = color
  ctx.beginPath()
  for (const [x, y] of points) ctx.lineTo(s * x, s * y)
  ctx.closePath(); ctx.fill()
}

function line (ctx: SKRSContext2D, s: number, points: ReadonlyArray<readonly [number, number]>, color: string, width: number): void {
  ctx.strokeStyle = color; ctx.lineWidth = s * width; ctx.lineCap = 'round'; ctx.lineJoin = 'round'
  ctx.beginPath()
  for (const [x, y] of points) ctx.lineTo(s * x, s * y)
  ctx.stroke()
}

/** Two eyes with a highlight, centred on x = 0.5 at height y, `gap` apart. */
function eyes (ctx: SKRSContext2D, s: number, y: number, gap: number, r: number, iris = '#1b1b1b'): void {
  for (const x of [0.5 - gap / 2, 0.5 + gap / 2]) {
    blob(ctx, s, x, y, r, r * 1.15, iris)
    blob(ctx, s, x + r * 0.3, y - r * 0.4, r * 0.35, r * 0.35, 'white')
  }
}

/** The disc's background clipped to the disc, for backgrounds that are not a gradient. */
function clipDisc (ctx: SKRSContext2D, s: number): void {
  ctx.beginPath(); ctx.arc(s / 2, s / 2, s / 2 - 4, 0, Math.PI * 2); ctx.clip()
}

/** A cat's head: ears, face, eyes, nose, mouth and whiskers. */
function catFace (ctx: SKRSContext2D, s: number, fur: string, inner: string, eye?: string): void {
  shape(ctx, s, [[0.22, 0.5], [0.24, 0.18], [0.45, 0.36]], fur)
  shape(ctx, s, [[0.78, 0.5], [0.76, 0.18], [0.55, 0.36]], fur)
  shape(ctx, s, [[0.27, 0.42], [0.28, 0.26], [0.4, 0.37]], inner)
  shape(ctx, s, [[0.73, 0.42], [0.72, 0.26], [0.6, 0.37]], inner)
  blob(ctx, s, 0.5, 0.57, 0.3, 0.25, fur)
  for (const x of [0.39, 0.61]) {
    if (eye === undefined) {
      // Closed, smiling eyes.
      line(ctx, s, [[x - 0.045, 0.55], [x, 0.51], [x + 0.045, 0.55]], '#1b1b1b', 0.016)
    } else {
      blob(ctx, s, x, 0.53, 0.055, 0.065, eye)
      blob(ctx, s, x, 0.53, 0.018, 0.055, '#1b1b1b')
    }
  }
  shape(ctx, s, [[0.47, 0.62], [0.53, 0.62], [0.5, 0.66]], '#f48fb1')
  line(ctx, s, [[0.44, 0.68], [0.47, 0.7], [0.5, 0.67], [0.53, 0.7], [0.56, 0.68]], '#3b2f2f', 0.012)
  for (const dy of [-0.02, 0.02]) {
    line(ctx, s, [[0.36, 0.65 + dy], [0.16, 0.62 + dy * 2.5]], 'rgba(255,255,255,0.9)', 0.008)
    line(ctx, s, [[0.64, 0.65 + dy], [0.84, 0.62 + dy * 2.5]], 'rgba(255,255,255,0.9)', 0.008)
  }
}

export const ICONS: Readonly<Record<string, Draw>> = {
  star (ctx, s) { disc(ctx, s, ['#f7971e', '#ffd200']); star(ctx, s / 2, s / 2 + 6, s * 0.36, s * 0.15) },
  heart (ctx, s) { disc(ctx, s, ['#ff416c', '#ff4b2b']); heart(ctx, s / 2, s * 0.26, s * 0.55) },
  moon (ctx, s) {
    disc(ctx, s, ['#141e30', '#243b55'])
    ctx.fillStyle = '#f5f3ce'; ctx.beginPath(); ctx.arc(s / 2, s / 2, s * 0.3, 0, Math.PI * 2); ctx.fill()
    ctx.fillStyle = '#1d2c43'; ctx.beginPath(); ctx.arc(s * 0.6, s * 0.42, s * 0.26, 0, Math.PI * 2); ctx.fill()
  },
  sun (ctx, s) {
    disc(ctx, s, ['#56ccf2', '#2f80ed'])
    ctx.fillStyle = '#ffd93b'; star(ctx, s / 2, s / 2, s * 0.38, s * 0.24, 12)
    ctx.beginPath(); ctx.arc(s / 2, s / 2, s * 0.2, 0, Math.PI * 2); ctx.fill()
  },
  crown (ctx, s) {
    disc(ctx, s, ['#8e2de2', '#4a00e0'])
    ctx.fillStyle = '#ffd700'; ctx.beginPath()
    ctx.moveTo(s * 0.22, s * 0.68); ctx.lineTo(s * 0.22, s * 0.36); ctx.lineTo(s * 0.36, s * 0.5); ctx.lineTo(s * 0.5, s * 0.28)
    ctx.lineTo(s * 0.64, s * 0.5); ctx.lineTo(s * 0.78, s * 0.36); ctx.lineTo(s * 0.78, s * 0.68); ctx.closePath(); ctx.fill()
  },
  shield (ctx, s) {
    disc(ctx, s, ['#11998e', '#38ef7d'])
    ctx.beginPath(); ctx.moveTo(s / 2, s * 0.2); ctx.lineTo(s * 0.76, s * 0.3); ctx.quadraticCurveTo(s * 0.74, s * 0.66, s / 2, s * 0.82)
    ctx.quadraticCurveTo(s * 0.26, s * 0.66, s * 0.24, s * 0.3); ctx.closePath(); ctx.fill()
  },
  bolt (ctx, s) {
    disc(ctx, s, ['#232526', '#414345'])
    ctx.fillStyle = '#ffe000'; ctx.beginPath()
    ctx.moveTo(s * 0.56, s * 0.14); ctx.lineTo(s * 0.3, s * 0.54); ctx.lineTo(s * 0.48, s * 0.54); ctx.lineTo(s * 0.42, s * 0.86)
    ctx.lineTo(s * 0.7, s * 0.44); ctx.lineTo(s * 0.52, s * 0.44); ctx.closePath(); ctx.fill()
  },
  leaf (ctx, s) {
    disc(ctx, s, ['#a8e063', '#56ab2f'])
    ctx.beginPath(); ctx.moveTo(s * 0.25, s * 0.75); ctx.quadraticCurveTo(s * 0.2, s * 0.2, s * 0.78, s * 0.22)
    ctx.quadraticCurveTo(s * 0.8, s * 0.78, s * 0.25, s * 0.75); ctx.fill()
    ctx.strokeStyle = '#56ab2f'; ctx.lineWidth = 6; ctx.beginPath(); ctx.moveTo(s * 0.25, s * 0.75); ctx.lineTo(s * 0.66, s * 0.34); ctx.stroke()
  },
  flame (ctx, s) {
    disc(ctx, s, ['#cb2d3e', '#ef473a'])
    ctx.fillStyle = '#ffcf40'; ctx.beginPath(); ctx.moveTo(s / 2, s * 0.16)
    ctx.bezierCurveTo(s * 0.8, s * 0.45, s * 0.75, s * 0.82, s / 2, s * 0.84)
    ctx.bezierCurveTo(s * 0.25, s * 0.82, s * 0.2, s * 0.5, s * 0.4, s * 0.4)
    ctx.bezierCurveTo(s * 0.42, s * 0.55, s * 0.5, s * 0.5, s / 2, s * 0.16); ctx.fill()
  },
  diamond (ctx, s) {
    disc(ctx, s, ['#00c6ff', '#0072ff'])
    ctx.beginPath(); ctx.moveTo(s * 0.3, s * 0.38); ctx.lineTo(s * 0.4, s * 0.26); ctx.lineTo(s * 0.6, s * 0.26); ctx.lineTo(s * 0.7, s * 0.38)
    ctx.lineTo(s / 2, s * 0.78); ctx.closePath(); ctx.fill()
  },
  paw (ctx, s) {
    disc(ctx, s, ['#f2994a', '#f2c94c'])
    ctx.fillStyle = '#5a3e1b'
    ctx.beginPath(); ctx.ellipse(s / 2, s * 0.62, s * 0.17, s * 0.14, 0, 0, Math.PI * 2); ctx.fill()
    for (const [x, y] of [[0.3, 0.42], [0.42, 0.3], [0.58, 0.3], [0.7, 0.42]] as const) {
      ctx.beginPath(); ctx.ellipse(s * x, s * y, s * 0.07, s * 0.09, 0, 0, Math.PI * 2); ctx.fill()
    }
  },
  music (ctx, s) {
    disc(ctx, s, ['#ee0979', '#ff6a00'])
    ctx.beginPath(); ctx.ellipse(s * 0.36, s * 0.68, s * 0.1, s * 0.075, -0.4, 0, Math.PI * 2); ctx.fill()
    ctx.beginPath(); ctx.ellipse(s * 0.66, s * 0.62, s * 0.1, s * 0.075, -0.4, 0, Math.PI * 2); ctx.fill()
    ctx.fillRect(s * 0.43, s * 0.26, s * 0.035, s * 0.42); ctx.fillRect(s * 0.73, s * 0.2, s * 0.035, s * 0.42)
    ctx.beginPath(); ctx.moveTo(s * 0.43, s * 0.26); ctx.lineTo(s * 0.765, s * 0.2); ctx.lineTo(s * 0.765, s * 0.28); ctx.lineTo(s * 0.43, s * 0.34); ctx.fill()
  },
  // The hosted service's icon names (docs/generation.md, "Icon and banner names"): each
  // is a generic subject that fits the word, drawn here, never the character the name
  // may recall.
  cat (ctx, s) {
    disc(ctx, s, ['#74ebd5', '#9face6'])
    catFace(ctx, s, '#8d8d9b', '#f8bbd0', '#9ccc65')
  },
  // A beckoning lucky cat, the Japanese folk figure: white, red collar, golden bell.
  neko (ctx, s) {
    disc(ctx, s, ['#ff9966', '#ff5e62'])
    ctx.save(); clipDisc(ctx, s)
    blob(ctx, s, 0.5, 0.9, 0.27, 0.2, '#fafafa')
    ctx.restore()
    catFace(ctx, s, '#fafafa', '#f48fb1')
    // The raised, beckoning paw, outlined where it overlaps the face.
    ctx.save(); clipDisc(ctx, s)
    ctx.strokeStyle = '#e0a0a0'; ctx.lineWidth = s * 0.012
    ctx.beginPath(); ctx.ellipse(s * 0.8, s * 0.62, s * 0.07, s * 0.17, -0.2, 0, Math.PI * 2); ctx.stroke()
    blob(ctx, s, 0.8, 0.62, 0.07, 0.17, '#fafafa', -0.2)
    ctx.beginPath(); ctx.ellipse(s * 0.83, s * 0.42, s * 0.08, s * 0.075, 0, 0, Math.PI * 2); ctx.stroke()
    blob(ctx, s, 0.83, 0.42, 0.08, 0.075, '#fafafa')
    for (const x of [0.81, 0.85]) line(ctx, s, [[x, 0.36], [x, 0.4]], '#bdbdbd', 0.01)
    ctx.restore()
    ctx.fillStyle = '#d32f2f'; ctx.fillRect(s * 0.3, s * 0.77, s * 0.4, s * 0.05)
    blob(ctx, s, 0.5, 0.84, 0.045, 0.045, '#ffc107')
    line(ctx, s, [[0.47, 0.845], [0.53, 0.845]], '#8d6e00', 0.008)
  },
  // A cat among stars on rainbow stripes.
  nyancat (ctx, s) {
    ctx.save(); clipDisc(ctx, s)
    const stripes = ['#ef5350', '#ffa726', '#ffee58', '#66bb6a', '#42a5f5', '#7e57c2']
    stripes.forEach((c, i) => { ctx.fillStyle = c; ctx.fillRect(0, (s * i) / stripes.length, s, s / stripes.length + 1) })
    ctx.fillStyle = 'rgba(20,24,60,0.35)'; ctx.fillRect(0, 0, s, s)
    ctx.restore()
    ctx.fillStyle = 'white'
    for (const [x, y, r] of [[0.2, 0.28, 0.04], [0.8, 0.24, 0.035], [0.16, 0.72, 0.03], [0.84, 0.76, 0.04]] as const) star(ctx, s * x, s * y, s * r, s * r * 0.4, 4)
    catFace(ctx, s, '#b0a4c8', '#f8bbd0', '#ffd54f')
  },
  dog (ctx, s) {
    disc(ctx, s, ['#f6d365', '#fda085'])
    blob(ctx, s, 0.5, 0.5, 0.27, 0.28, '#b5835a')
    blob(ctx, s, 0.25, 0.5, 0.09, 0.2, '#6d4c33', 0.35)
    blob(ctx, s, 0.75, 0.5, 0.09, 0.2, '#6d4c33', -0.35)
    blob(ctx, s, 0.5, 0.66, 0.15, 0.12, '#f1dcc5')
    blob(ctx, s, 0.5, 0.77, 0.05, 0.07, '#ef6f8f')
    blob(ctx, s, 0.5, 0.66, 0.15, 0.1, '#f1dcc5')
    blob(ctx, s, 0.6, 0.45, 0.065, 0.055, 'rgba(109,76,51,0.55)')
    blob(ctx, s, 0.5, 0.6, 0.055, 0.04, '#2b2b2b')
    line(ctx, s, [[0.5, 0.64], [0.5, 0.69], [0.45, 0.72]], '#2b2b2b', 0.012)
    line(ctx, s, [[0.5, 0.69], [0.55, 0.72]], '#2b2b2b', 0.012)
    eyes(ctx, s, 0.46, 0.2, 0.035)
  },
  dragon (ctx, s) {
    disc(ctx, s, ['#1f4037', '#99f2c8'])
    for (const x of [0.3, 0.42, 0.58, 0.7]) shape(ctx, s, [[x - 0.05, 0.34], [x, 0.18], [x + 0.05, 0.34]], '#2e7d32')
    shape(ctx, s, [[0.3, 0.34], [0.2, 0.14], [0.36, 0.28]], '#fff3c4')
    shape(ctx, s, [[0.7, 0.34], [0.8, 0.14], [0.64, 0.28]], '#fff3c4')
    blob(ctx, s, 0.5, 0.46, 0.25, 0.19, '#43a047')
    blob(ctx, s, 0.5, 0.64, 0.19, 0.15, '#66bb6a')
    for (const x of [0.4, 0.6]) {
      blob(ctx, s, x, 0.44, 0.06, 0.045, '#ffeb3b')
      blob(ctx, s, x, 0.44, 0.014, 0.04, '#1b1b1b')
    }
    line(ctx, s, [[0.33, 0.37], [0.45, 0.4]], '#1b5e20', 0.02)
    line(ctx, s, [[0.67, 0.37], [0.55, 0.4]], '#1b5e20', 0.02)
    blob(ctx, s, 0.44, 0.6, 0.02, 0.015, '#1b5e20')
    blob(ctx, s, 0.56, 0.6, 0.02, 0.015, '#1b5e20')
    line(ctx, s, [[0.4, 0.7], [0.5, 0.73], [0.6, 0.7]], '#1b5e20', 0.014)
    shape(ctx, s, [[0.43, 0.71], [0.46, 0.72], [0.445, 0.76]], 'white')
    shape(ctx, s, [[0.57, 0.71], [0.54, 0.72], [0.555, 0.76]], 'white')
  },
  // A fox.
  senko (ctx, s) {
    disc(ctx, s, ['#2c3e50', '#4ca1af'])
    shape(ctx, s, [[0.22, 0.45], [0.24, 0.13], [0.44, 0.33]], '#f57c00')
    shape(ctx, s, [[0.78, 0.45], [0.76, 0.13], [0.56, 0.33]], '#f57c00')
    shape(ctx, s, [[0.27, 0.38], [0.27, 0.21], [0.38, 0.33]], '#fff3e0')
    shape(ctx, s, [[0.73, 0.38], [0.73, 0.21], [0.62, 0.33]], '#fff3e0')
    shape(ctx, s, [[0.2, 0.44], [0.32, 0.32], [0.68, 0.32], [0.8, 0.44], [0.7, 0.62], [0.5, 0.82], [0.3, 0.62]], '#fb8c00')
    shape(ctx, s, [[0.2, 0.44], [0.4, 0.58], [0.5, 0.82], [0.3, 0.64]], '#fff8f0')
    shape(ctx, s, [[0.8, 0.44], [0.6, 0.58], [0.5, 0.82], [0.7, 0.64]], '#fff8f0')
    blob(ctx, s, 0.5, 0.79, 0.04, 0.03, '#2b2b2b')
    for (const x of [0.39, 0.61]) {
      blob(ctx, s, x, 0.5, 0.04, 0.045, '#3e2723')
      blob(ctx, s, x + 0.012, 0.485, 0.013, 0.013, 'white')
    }
  },
  // A cheerful frog.
  pepe (ctx, s) {
    disc(ctx, s, ['#e0f7fa', '#80deea'])
    blob(ctx, s, 0.34, 0.36, 0.12, 0.11, '#43a047')
    blob(ctx, s, 0.66, 0.36, 0.12, 0.11, '#43a047')
    blob(ctx, s, 0.5, 0.6, 0.32, 0.22, '#4caf50')
    for (const x of [0.34, 0.66]) {
      blob(ctx, s, x, 0.36, 0.08, 0.08, 'white')
      blob(ctx, s, x, 0.37, 0.04, 0.045, '#1b1b1b')
      blob(ctx, s, x + 0.015, 0.355, 0.013, 0.013, 'white')
    }
    ctx.strokeStyle = '#1b5e20'; ctx.lineWidth = s * 0.018; ctx.lineCap = 'round'
    ctx.beginPath(); ctx.arc(s * 0.5, s * 0.52, s * 0.19, 0.2 * Math.PI, 0.8 * Math.PI); ctx.stroke()
    blob(ctx, s, 0.28, 0.62, 0.05, 0.03, 'rgba(244,143,177,0.8)')
    blob(ctx, s, 0.72, 0.62, 0.05, 0.03, 'rgba(244,143,177,0.8)')
    blob(ctx, s, 0.46, 0.53, 0.012, 0.01, '#1b5e20')
    blob(ctx, s, 0.54, 0.53, 0.012, 0.01, '#1b5e20')
  },
  // A swamp ogre: horns and tusks, a folk-tale troll.
  shrek (ctx, s) {
    disc(ctx, s, ['#134e5e', '#71b280'])
    shape(ctx, s, [[0.28, 0.34], [0.22, 0.14], [0.37, 0.29]], '#efe6cf')
    shape(ctx, s, [[0.72, 0.34], [0.78, 0.14], [0.63, 0.29]], '#efe6cf')
    blob(ctx, s, 0.5, 0.52, 0.28, 0.3, '#8bc34a')
    blob(ctx, s, 0.21, 0.5, 0.05, 0.08, '#7cb342')
    blob(ctx, s, 0.79, 0.5, 0.05, 0.08, '#7cb342')
    ctx.fillStyle = '#689f38'; ctx.fillRect(s * 0.3, s * 0.38, s * 0.4, s * 0.06)
    for (const x of [0.4, 0.6]) {
      blob(ctx, s, x, 0.47, 0.045, 0.04, 'white')
      blob(ctx, s, x, 0.475, 0.022, 0.025, '#4e342e')
    }
    blob(ctx, s, 0.5, 0.58, 0.07, 0.05, '#7cb342')
    blob(ctx, s, 0.47, 0.59, 0.012, 0.01, '#33691e')
    blob(ctx, s, 0.53, 0.59, 0.012, 0.01, '#33691e')
    line(ctx, s, [[0.36, 0.68], [0.5, 0.72], [0.64, 0.68]], '#33691e', 0.018)
    shape(ctx, s, [[0.38, 0.695], [0.43, 0.705], [0.395, 0.62]], '#fffde7')
    shape(ctx, s, [[0.62, 0.695], [0.57, 0.705], [0.605, 0.62]], '#fffde7')
  },
  // A friendly thundercloud with a lightning bolt: an electric creature of our own.
  pikachu (ctx, s) {
    disc(ctx, s, ['#0f2027', '#2c5364'])
    shape(ctx, s, [[0.5, 0.5], [0.4, 0.72], [0.5, 0.72], [0.42, 0.92], [0.64, 0.64], [0.53, 0.64], [0.6, 0.5]], '#ffd600')
    for (const [x, y, r] of [[0.32, 0.46, 0.13], [0.46, 0.36, 0.17], [0.64, 0.4, 0.15], [0.74, 0.5, 0.1], [0.5, 0.5, 0.14]] as const) blob(ctx, s, x, y, r, r, '#eceff1')
    ctx.fillStyle = '#eceff1'; ctx.fillRect(s * 0.3, s * 0.5, s * 0.46, s * 0.1)
    blob(ctx, s, 0.3, 0.55, 0.05, 0.05, '#eceff1'); blob(ctx, s, 0.76, 0.55, 0.05, 0.05, '#eceff1')
    eyes(ctx, s, 0.46, 0.14, 0.028, '#263238')
    ctx.strokeStyle = '#263238'; ctx.lineWidth = s * 0.012; ctx.lineCap = 'round'
    ctx.beginPath(); ctx.arc(s * 0.53, s * 0.5, s * 0.035, 0.15 * Math.PI, 0.85 * Math.PI); ctx.stroke()
    blob(ctx, s, 0.4, 0.52, 0.03, 0.018, 'rgba(255,171,145,0.7)')
    blob(ctx, s, 0.66, 0.52, 0.03, 0.018, 'rgba(255,171,145,0.7)')
  },
  // A chick.
  chika (ctx, s) {
    disc(ctx, s, ['#ffdde1', '#ee9ca7'])
    blob(ctx, s, 0.5, 0.62, 0.25, 0.22, '#ffd54f')
    blob(ctx, s, 0.5, 0.42, 0.18, 0.17, '#ffe082')
    blob(ctx, s, 0.28, 0.64, 0.07, 0.11, '#ffca28', 0.5)
    blob(ctx, s, 0.72, 0.64, 0.07, 0.11, '#ffca28', -0.5)
    shape(ctx, s, [[0.47, 0.27], [0.5, 0.18], [0.52, 0.27]], '#ffca28')
    shape(ctx, s, [[0.5, 0.27], [0.57, 0.2], [0.55, 0.28]], '#ffca28')
    eyes(ctx, s, 0.4, 0.14, 0.025)
    shape(ctx, s, [[0.45, 0.46], [0.55, 0.46], [0.5, 0.52]], '#fb8c00')
    blob(ctx, s, 0.38, 0.48, 0.03, 0.018, 'rgba(244,143,177,0.85)')
    blob(ctx, s, 0.62, 0.48, 0.03, 0.018, 'rgba(244,143,177,0.85)')
    line(ctx, s, [[0.43, 0.84], [0.43, 0.9]], '#fb8c00', 0.015)
    line(ctx, s, [[0.57, 0.84], [0.57, 0.9]], '#fb8c00', 0.015)
  }
}
