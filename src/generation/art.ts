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
      ctx.lineTo(w, h); ctx.closePath(); ctx.fill()
    })
  },
  wave (ctx, w, h) {
    gradient(ctx, h, ['#89f7fe', '#66a6ff'])
    waves(ctx, w, h, ['rgba(255,255,255,0.35)', 'rgba(30,120,220,0.6)', 'rgba(10,60,150,0.85)'], 24)
  },
  sunset (ctx, w, h) {
    gradient(ctx, h, ['#0f2027', '#c94b4b', '#f3904f', '#fceabb'])
    ctx.fillStyle = 'rgba(255,230,150,0.9)'
    ctx.beginPath(); ctx.arc(w / 2, h * 0.78, 110, 0, Math.PI * 2); ctx.fill()
    ctx.fillStyle = '#1b1b2f'
    ctx.fillRect(0, h * 0.8, w, h * 0.2)
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
      const g = ctx.createLinearGradient(0, 0, 0, h)
      g.addColorStop(0, 'rgba(0,255,170,0)'); g.addColorStop(0.5, `rgba(${60 * i},255,${150 + 20 * i},0.35)`); g.addColorStop(1, 'rgba(0,255,170,0)')
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
  }
}
