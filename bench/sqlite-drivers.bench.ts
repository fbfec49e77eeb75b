// The default store's SQLite driver on each supported Node (issue 36): the store's hot
// paths (key lookup by hash, a usage batch, a gif pick in a read transaction, and the
// one-statement pick at a fraction) run by bench/sqlite-driver-worker.ts in a process of
// its own per candidate, the candidates in turn, the order reversed every other round:
//   reference: better-sqlite3 12 on this machine's Node (20), the store until now;
//   better-sqlite3 13 (Node-API) on Node 24, what the store loads there;
//   node:sqlite on Node 24, the built-in alternative, through the same statements.
// Node 24 comes from the npm registry (scripts/node-lts.mjs). No target: the figures
// chose the driver (docs/dependencies.md).
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureNode } from '../scripts/node-lts.mjs'
import { type Benchmark, type BenchRow, median, perRoundRatios } from './harness.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const WORKER = path.join(root, 'bench', 'sqlite-driver-worker.ts')
const PATHS = {
  keyLookup: 'key lookup by hash (keys.findByHash)',
  usageBatch: 'usage batch of 20 entries with its batch id (usage.add)',
  gifPick: 'gif pick: count and one position in a read transaction (gifs.pick)',
  gifAtFraction: 'gif pick at a fraction, one joined statement (gifs.pickOne, uncached)'
} as const
type PathName = keyof typeof PATHS

function measure (node: string, driver: string, seconds: number): Record<PathName, number> {
  const out = execFileSync(node, ['--import', 'tsx', WORKER, driver, String(seconds)], { cwd: root, encoding: 'utf8' })
  return JSON.parse(out.trim().split('\n').at(-1)!) as Record<PathName, number>
}

const bench: Benchmark = {
  name: 'SQLite drivers of the default store (better-sqlite3 12 on Node 20, 13 and node:sqlite on Node 24)',
  async run ({ quick }) {
    const node24 = ensureNode(24)
    if (!node24.node) throw new Error(`no Node 24: ${node24.reason}`)
    const candidates = {
      reference: { node: process.execPath, driver: 'better-sqlite3', label: `better-sqlite3 12 on Node ${process.versions.node}` },
      bs13: { node: node24.node, driver: 'better-sqlite3-13', label: `better-sqlite3 13 on Node ${node24.version}` },
      builtin: { node: node24.node, driver: 'node:sqlite', label: `node:sqlite on Node ${node24.version}` }
    }
    type Name = keyof typeof candidates
    const names = Object.keys(candidates) as Name[]
    const rounds = quick ? 2 : 5
    const seconds = quick ? 0.5 : 1.5
    const results = Object.fromEntries(names.map((n) => [n, [] as Array<Record<PathName, number>>])) as Record<Name, Array<Record<PathName, number>>>
    for (let round = 0; round < rounds; round++) {
      for (const name of round % 2 === 1 ? [...names].reverse() : names) {
        results[name].push(measure(candidates[name].node, candidates[name].driver, seconds))
      }
    }
    const rows: BenchRow[] = []
    for (const p of Object.keys(PATHS) as PathName[]) {
      const of = (name: Name): number[] => results[name].map((r) => r[p])
      for (const [ours, reference] of [['bs13', 'reference'], ['builtin', 'reference'], ['builtin', 'bs13']] as Array<[Name, Name]>) {
        rows.push({
          name: `${PATHS[p]}: ${candidates[ours].label}`,
          ours: median(of(ours)),
          reference: median(of(reference)),
          referenceName: candidates[reference].label,
          unit: 'ops/s',
          better: 'higher',
          note: `per round: ${perRoundRatios(of(ours), of(reference))}`
        })
      }
    }
    return rows
  }
}

export default bench
