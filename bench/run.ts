// npm run bench [-- names...] [--quick] [--duration=SECONDS]
// Runs every bench/*.bench.ts (or those whose name contains one of the given words)
// and prints, per benchmark, our figure beside the reference and the ratio.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Benchmark, type BenchRow, ratioOf } from './harness.js'

const dir = path.dirname(fileURLToPath(import.meta.url))
const argv = process.argv.slice(2)
const quick = argv.includes('--quick')
const durationArg = argv.find((a) => a.startsWith('--duration='))
const duration = durationArg ? Number(durationArg.split('=')[1]) : quick ? 3 : 10
const filters = argv.filter((a) => !a.startsWith('--'))

function fmt (n: number | undefined, unit: string): string {
  if (n === undefined) return '-'
  const digits = n >= 1000 ? 0 : n >= 100 ? 1 : n >= 1 ? 2 : 4
  return `${n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 })} ${unit}`
}

function print (bench: string, rows: BenchRow[]): void {
  console.log(`\n## ${bench}`)
  for (const row of rows) {
    const ratio = ratioOf(row)
    const verdict = row.target === undefined || ratio === undefined ? '' : ratio >= row.target ? `  (target ${row.target}: met)` : `  (target ${row.target}: NOT met)`
    console.log(`- ${row.name}`)
    console.log(`    ours: ${fmt(row.ours, row.unit)}` + (row.reference === undefined ? '' : `   ${row.referenceName ?? 'reference'}: ${fmt(row.reference, row.unit)}`))
    if (ratio !== undefined) console.log(`    ratio: ${ratio.toFixed(3)} (${row.better === 'higher' ? 'ours / reference' : 'reference / ours'}; above 1 = ours better)${verdict}`)
    if (row.note) console.log(`    ${row.note}`)
  }
}

const files = fs.readdirSync(dir).filter((f) => f.endsWith('.bench.ts')).sort()
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
if (files.length === 0) {
  console.error(`No benchmark matches ${filters.join(', ')}; have: ${fs.readdirSync(dir).filter((f) => f.endsWith('.bench.ts')).join(', ')}`)
  process.exit(1)
}
console.log(`# Utility Media API benchmarks (${quick ? 'quick' : 'full'}, ${duration}s per HTTP load, node ${process.version})`)
let failed = false
for (const file of files) {
  const mod = await import(path.join(dir, file)) as { default: Benchmark }
  const started = Date.now()
  try {
    const rows = await mod.default.run({ duration, quick })
    print(mod.default.name, rows)
    console.log(`  (${((Date.now() - started) / 1000).toFixed(1)} s)`)
  } catch (err) {
    failed = true
    console.log(`\n## ${mod.default.name}\n- FAILED: ${err instanceof Error ? err.stack : String(err)}`)
  }
}
process.exit(failed ? 1 : 0)
