// The usage chart: one bar per day, drawn as inline SVG (no chart library for one bar
// chart). Sized by its viewBox, so it scales to the width it is given; every bar carries
// its numbers in a <title> (shown on hover, read by screen readers), and the page offers
// the same numbers as a table.
import { type DayTotal, niceMax } from './api.js'

const SVG = 'http://www.w3.org/2000/svg'
const WIDTH = 720
const HEIGHT = 240
const LEFT = 48
/** Room for today's date, centred under the last bar. */
const RIGHT = 20
const BOTTOM = 28
const TOP = 12

function el<K extends keyof SVGElementTagNameMap> (name: K, attributes: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name)
  for (const [attribute, value] of Object.entries(attributes)) node.setAttribute(attribute, String(value))
  if (text !== undefined) node.textContent = text
  return node
}

/** The chart of `days` (units per day, the billed figure), labelled by `label`. */
export function usageChart (days: DayTotal[], label: string): SVGSVGElement {
  const svg = el('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-label': label, class: 'bars' })
  const top = niceMax(Math.max(0, ...days.map((d) => d.units)))
  const plotHeight = HEIGHT - TOP - BOTTOM
  const slot = (WIDTH - LEFT - RIGHT) / Math.max(1, days.length)
  const y = (value: number) => TOP + plotHeight - (value / top) * plotHeight

  // The scale: zero, half and the top, with light lines across.
  for (const value of [0, top / 2, top]) {
    svg.append(el('line', { x1: LEFT, x2: WIDTH - RIGHT, y1: y(value), y2: y(value), class: 'grid-line' }))
    svg.append(el('text', { x: LEFT - 6, y: y(value) + 4, 'text-anchor': 'end', class: 'axis' }, Number.isInteger(value) ? String(value) : value.toFixed(1)))
  }
  days.forEach((d, i) => {
    const x = LEFT + i * slot + slot * 0.15
    const height = Math.max(0, (d.units / top) * plotHeight)
    const bar = el('rect', { x: x.toFixed(2), y: (TOP + plotHeight - height).toFixed(2), width: (slot * 0.7).toFixed(2), height: height.toFixed(2), class: d.units > 0 ? 'bar' : 'bar empty', 'data-day': d.day, 'data-units': d.units, 'data-requests': d.requests })
    bar.append(el('title', {}, `${d.day}: ${d.units} units, ${d.requests} requests`))
    svg.append(bar)
    // A date under every 7th bar and the last (today), from the right so today is labelled.
    if ((days.length - 1 - i) % 7 === 0) {
      svg.append(el('text', { x: (x + slot * 0.35).toFixed(2), y: HEIGHT - 8, 'text-anchor': 'middle', class: 'axis' }, d.day.slice(5)))
    }
  })
  return svg
}
