#!/usr/bin/env node
// Moves test/ to mirror src/ (issue 37, item 6), and can be run again at any time: a unit
// test goes to test/unit/<path of the src module it tests>/, the suites by kind to
// test/system/<kind>/, what the tests share to test/support/ (data they are built from
// stays in test/fixtures/). Then every relative import of a moved file, and of every file
// that imports one, is rewritten, and so is every mention of a moved path in the
// repository's text (docs, comments, scripts, package.json), CHANGELOG.md excepted (it
// records what was). A second run finds everything in place and changes nothing; files
// that reach the old folders later (another branch's new tests) are moved by the next run,
// and an import or a mention written for the old layout after the move (a branch that
// edited a test where it was) is followed through the renames git recorded.
//
//   node scripts/move-tests.mjs             move (git mv), rewrite, print the plan and what
//                                           changed; refuses a checkout with uncommitted
//                                           changes (--allow-dirty) so the result is one diff
//   node scripts/move-tests.mjs --dry-run   print the plan and what would change, touch nothing
//   node scripts/move-tests.mjs --check     exit 1 when anything would change (the layout holds)
//
// Where a file goes, first rule that decides wins:
//   1. it is already in the new layout (test/unit/, test/system/, test/support/,
//      test/fixtures/): it stays;
//   2. OVERRIDES, by its path under test/ (a destination, or the src module it is about);
//   3. KIND_FOLDERS: the folders of the suites by kind move whole;
//   4. a file at the top of test/ (helpers.ts, processes.ts, ...) is support;
//   5. a test (*.test.ts) goes beside the src module it is about, derived from what it
//      imports (deriveModule, below: the module named like the test, else the one it
//      imports most from, else its feature's routes for a route-level test);
//   6. any other file (a helper of some tests) goes where the tests that import it went,
//      or to test/support/ when they went to several places.
// A test that no rule places stops the run before anything moves, with the list of such
// files and their src imports: give each an entry in OVERRIDES.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const posix = path.posix
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const DRY = args.includes('--dry-run') || args.includes('--check')
const CHECK = args.includes('--check')
const SELF = 'scripts/move-tests.mjs'

/** Folders of the new layout: what is in them is in place. */
const SETTLED = ['unit/', 'system/', 'support/', 'fixtures/']

/** The suites by kind, old folder under test/ → new folder (the whole folder moves). */
const KIND_FOLDERS = {
  process: 'system/process',
  hostile: 'system/hostile',
  faults: 'system/faults',
  'scale-out': 'system/scale-out',
  browser: 'system/browser',
  client: 'system/clients',
  clients: 'system/clients',
  golden: 'system/golden/reference' // the reference pictures of the golden suite
}

/**
 * Decisions by path under test/, for the files the rules would place elsewhere or not at
 * all. `to`: the destination under test/. `module`: the src module the test is about
 * (path under src/ without .ts; found by its name when it has moved within its feature
 * folder since), the test going to its folder; `name`: a new file name.
 */
const OVERRIDES = {
  // Shared support and fixtures: one place each.
  'fault-proxy.test.ts': { to: 'support/fault-proxy.test.ts' },
  'gifs/fake-gif-apis.ts': { to: 'support/fake-gif-apis.ts' }, // a server: unit, process and hostile tests use it
  'gifs/fixtures.ts': { to: 'fixtures/gifs.ts' },
  'gifs/archives.ts': { to: 'fixtures/archives.ts' },
  'conversion-image/fixtures.ts': { to: 'fixtures/images.ts' },
  'generation/name-corpus.ts': { to: 'fixtures/name-corpus.ts' },
  // The golden suite: the test, its cases and (KIND_FOLDERS) its reference pictures.
  'generation/golden.test.ts': { to: 'system/golden/golden.test.ts' },
  'generation/golden-cases.ts': { to: 'system/golden/golden-cases.ts' },
  // Tests of the built server or CLI started as a process.
  'foundation/server-process.test.ts': { to: 'system/process/server-process.test.ts' },
  'foundation/container.test.ts': { to: 'system/process/container.test.ts' }, // compose.yaml, Dockerfile, the start command
  'gifs/corrupt.test.ts': { to: 'system/process/gif-import-corrupt.test.ts' },
  'store/backup.test.ts': { to: 'system/process/store-backup.test.ts' },
  // Tests whose module is not the one their imports point at.
  'generation/work-pool.test.ts': { module: 'work/pool', name: 'pool.test.ts' },
  'foundation/auth.test.ts': { module: 'access/keys' }, // every protected route's key check
  'foundation/cli-keys.test.ts': { module: 'cli/commands/keys', name: 'keys.test.ts' },
  'foundation/config.test.ts': { module: 'config' },
  'foundation/cors.test.ts': { module: 'http/cors' },
  'foundation/errors.test.ts': { module: 'errors' }, // the catalogue, entry by entry
  'foundation/request-log.test.ts': { module: 'http/request-log' },
  'foundation/shared-behaviour.test.ts': { module: 'http/body' }, // bodies, request ids, the envelope on every route
  'conversion-image/config.test.ts': { module: 'config/settings', name: 'image-settings.test.ts' },
  'conversion-image/convert.test.ts': { module: 'conversion/image/routes' },
  'conversion-image/errors.test.ts': { module: 'conversion/image/routes' },
  'conversion-image/limits.test.ts': { module: 'conversion/image/upload' },
  'conversion-text/budgets.test.ts': { module: 'conversion/text/bounded' },
  'conversion-text/markdown-safety.test.ts': { module: 'conversion/text/markdown-to-html' },
  'colors/domain.test.ts': { module: 'colors/catalog' },
  'limits/counter-stores.test.ts': { module: 'store/counters/interface' },
  'limits/fair-limits.test.ts': { module: 'access/rate-limit' },
  'limits/memory-budget.test.ts': { module: 'work/memory-budget' },
  'limits/metrics.test.ts': { module: 'metrics/metrics' },
  'limits/redis-fallback.test.ts': { module: 'store/counters/redis' },
  'generation/animation.test.ts': { module: 'generation/routes' }, // animated answers through the routes
  'generation/budgets.test.ts': { module: 'generation/custom-limits' },
  'generation/emoji-fetch-failures.test.ts': { module: 'generation/render-job' },
  'generation/encode.test.ts': { module: 'generation/draw' },
  'generation/frame-delays.test.ts': { module: 'generation/timeline' },
  'generation/operator-animation.test.ts': { module: 'generation/routes' },
  'generation/quote-layout.test.ts': { module: 'generation/templates/quote' },
  'generation/script-coverage.test.ts': { module: 'generation/scripts' },
  'gifs/dominant-color.test.ts': { module: 'gifs/gif-info' },
  'gifs/files.test.ts': { module: 'gifs/routes' }, // the public gif files over HTTP
  'gifs/import.test.ts': { module: 'cli/commands/gifs', name: 'gifs.test.ts' },
  'gifs/moderation.test.ts': { module: 'gifs/routes' },
  'gifs/packs.test.ts': { module: 'gifs/importer' },
  'gifs/pick-options.test.ts': { module: 'gifs/catalog' },
  'gifs/sfw-gif.test.ts': { module: 'gifs/routes' },
  'playground/snippets.test.ts': { module: 'playground/routes' }, // web/playground/snippets.ts: the playground's page
  'store/gif-files-contract.test.ts': { module: 'store/gif-files' },
  'store/gif-moderation-migration.test.ts': { module: 'store/interface' }, // both stores' migrations
  'store/postgres-faults.test.ts': { module: 'store/postgres/guard', name: 'faults.test.ts' },
  'store/sqlite-database-file.test.ts': { module: 'store/sqlite/database-file', name: 'database-file.test.ts' },
  'store/store-contract.test.ts': { module: 'store/interface' },
  'store/store-unavailable-http.test.ts': { module: 'store/interface' },
  // Tests on their way from other branches (issue 38), placed ahead.
  'result-cache/routes.test.ts': { module: 'generation/picture-cache', name: 'picture-cache.test.ts' }, // X-Cache and 304 on the picture routes
  'result-cache/links.test.ts': { module: 'generation/picture-cache', name: 'picture-cache-links.test.ts' } // a signed link's picture cached
}

/**
 * Modules most tests import to set up, not to test: never the reason a test goes
 * somewhere (rule 5), unless the test is named after one.
 */
const SETUP_MODULES = new Set([
  'src/errors.ts', 'src/config.ts', 'src/http/envelope.ts', 'src/http/success.ts', 'src/http/error-handler.ts',
  'src/store/interface.ts', 'src/store/sqlite/index.ts', 'src/store/postgres/index.ts', 'src/access/keys.ts',
  'src/remote-fetch/address.ts', 'src/app.ts', 'src/cli/main.ts'
])

// ---------------------------------------------------------------------------------------

const fail = (lines) => { process.stderr.write(lines.join('\n') + '\n'); process.exit(1) }
const git = (...a) => execFileSync('git', a, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
const exists = (p) => fs.existsSync(path.join(root, p))
const isDir = (p) => { try { return fs.statSync(path.join(root, p)).isDirectory() } catch { return false } }
const read = (p) => fs.readFileSync(path.join(root, p), 'utf8')
const lines = (s) => s.split('\n').filter(Boolean)

if (!exists('.git') && git('rev-parse', '--show-toplevel').trim() !== root) fail(['Run me in a git checkout of the project.'])
if (!DRY) {
  const dirty = lines(git('status', '--porcelain', '--untracked-files=no'))
  if (dirty.length > 0 && !args.includes('--allow-dirty')) {
    fail(['Uncommitted changes: commit them first, so that what this script does is one reviewable diff (or --allow-dirty):', ...dirty.slice(0, 20).map((l) => '  ' + l)])
  }
}
const untracked = lines(git('ls-files', '--others', '--exclude-standard', 'test'))
if (untracked.length > 0) fail(['Untracked files in test/ (git mv cannot move them): add or remove them first:', ...untracked.map((f) => '  ' + f)])

const tracked = lines(git('ls-files'))
const testFiles = tracked.filter((f) => f.startsWith('test/'))
const srcFiles = new Set(tracked.filter((f) => f.startsWith('src/') && /\.(ts|mts|js|mjs)$/.test(f) && !f.endsWith('.d.ts')))

/** A path of the checkout for a file named by an import (./x.js names x.ts). */
function variants (p) {
  const out = [p]
  if (p.endsWith('.js')) out.push(p.slice(0, -3) + '.ts', p.slice(0, -3) + '.tsx')
  if (p.endsWith('.mjs')) out.push(p.slice(0, -4) + '.mts')
  if (p.endsWith('.cjs')) out.push(p.slice(0, -4) + '.cts')
  return out
}
const extOf = (p) => (p.match(/(\.d)?\.[cm]?[jt]sx?$|\.[^./]+$/) ?? [''])[0]
/** `to` with the extension `spec` was written with (an import of x.ts is written x.js). */
function withExtOf (to, written, found) {
  if (written === found) return to
  return to.slice(0, to.length - extOf(found).length) + extOf(written)
}

// Relative specifiers in code: import/export ... from '…', import('…'), import '…',
// new URL('…', import.meta.url), and path.resolve/join(<this file's folder>, '..', 'x').
const SPEC = /(\b(?:from|import)\s*\(?\s*)(['"])(\.\.?\/[^'"\n]*)\2|(\bnew URL\(\s*)(['"])(\.\.?\/[^'"\n]*)\5(\s*,\s*import\.meta\.url)/g
const SEGMENTS = /(\bpath\.(?:resolve|join)\(\s*(?:path\.dirname\(\s*fileURLToPath\(\s*import\.meta\.url\s*\)\s*\)|import\.meta\.dirname))((?:\s*,\s*'[^'\n]*')+)(\s*\))/g
const CODE = /\.(ts|mts|cts|tsx|js|mjs|cjs)$/

/** The src modules a file imports, with how many names it takes from each. */
function srcImportsOf (file) {
  const text = read(file)
  const found = new Map()
  for (const m of text.matchAll(/\b(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s*'(\.\.?\/[^']+)'|\bimport\(\s*'(\.\.?\/[^']+)'\s*\)|\bnew URL\(\s*'(\.\.?\/[^']+)'\s*,\s*import\.meta\.url/g)) {
    const spec = m[3] ?? m[4] ?? m[5]
    const target = posix.normalize(posix.join(posix.dirname(file), spec))
    const module = variants(target).find((v) => srcFiles.has(v))
    if (!module) continue
    const names = m[2] ? (m[2].match(/\{([^}]*)\}/)?.[1].split(',').filter((n) => n.trim()).length ?? 0) + (/^[\w$*]/.test(m[2]) ? 1 : 0) : 1
    found.set(module, (found.get(module) ?? 0) + Math.max(names, 1))
  }
  return found
}

/** The src folder an old feature folder of test/ was about: conversion-text → src/conversion/text. */
function areaOf (folder) {
  for (const candidate of [`src/${folder}`, `src/${folder.replaceAll('-', '/')}`]) if (isDir(candidate)) return candidate
  return undefined
}
const srcUnder = (dir) => [...srcFiles].filter((f) => f.startsWith(dir + '/'))
const stemOf = (f) => posix.basename(f).replace(/\.test\.ts$/, '').replace(/\.[^.]+$/, '')

/** An override's module: src/<hint>.ts, or the one file of that name in its feature folder (moved within it since). */
function findModule (hint, imports) {
  if (srcFiles.has(`src/${hint}.ts`)) return `src/${hint}.ts`
  const name = posix.basename(hint) + '.ts'
  const imported = [...imports.keys()].filter((m) => posix.basename(m) === name)
  if (imported.length === 1) return imported[0]
  const top = `src/${hint.split('/')[0]}`
  const named = (isDir(top) ? srcUnder(top) : []).filter((m) => posix.basename(m) === name)
  return named.length === 1 ? named[0] : undefined
}

/** The src module a test is about, and why; undefined when nothing decides. */
function deriveModule (file) {
  const rel = file.slice('test/'.length)
  const folder = rel.includes('/') ? rel.split('/')[0] : undefined
  const area = folder ? areaOf(folder) : undefined
  const stem = stemOf(file)
  const imports = srcImportsOf(file)
  const byName = (list) => list.filter((m) => stemOf(m) === stem)
  // The module named like the test, among its imports, then in its feature's folder.
  let hits = byName([...imports.keys()])
  if (hits.length === 1) return { module: hits[0], why: `named like ${hits[0]}, which it imports` }
  if (area) {
    hits = byName(srcUnder(area))
    if (hits.length === 1) return { module: hits[0], why: `named like ${hits[0]}` }
  }
  // The one module of that name in src/ (settings.test.ts and src/config/settings.ts).
  hits = byName([...srcFiles])
  if (hits.length === 1) return { module: hits[0], why: `named like ${hits[0]}` }
  // A test named like a src folder (result-cache.test.ts and src/result-cache/).
  const dirs = [...new Set([...srcFiles].map((f) => posix.dirname(f)))].filter((d) => posix.basename(d) === stem)
  if (dirs.length === 1) return { dir: dirs[0], why: `named like the folder ${dirs[0]}/` }
  // feature-module.test.ts naming a module of a folder (work-pool → src/work/pool.ts).
  for (const m of imports.keys()) {
    if (stem === `${posix.basename(posix.dirname(m))}-${stemOf(m)}`) return { module: m, why: `named like ${m}, which it imports` }
  }
  // The module it imports the most names from, its feature's own first; setup modules aside.
  const candidates = [...imports].filter(([m]) => !SETUP_MODULES.has(m))
  const own = candidates.filter(([m]) => area && m.startsWith(area + '/'))
  const pool = own.length > 0 ? own : candidates
  const routeLevel = /\bcreateTestApp\b|\.inject\(/.test(read(file))
  if (own.length === 0 && routeLevel && area && srcFiles.has(`${area}/routes.ts`)) {
    return { module: `${area}/routes.ts`, why: 'a route-level test of its feature, beside its routes' }
  }
  if (pool.length > 0) {
    const most = Math.max(...pool.map(([, n]) => n))
    const top = pool.filter(([, n]) => n === most).map(([m]) => m)
    const topDirs = new Set(top.map((m) => posix.dirname(m)))
    if (topDirs.size === 1) return { module: top[0], why: `imports most from ${top.join(', ')}` }
  }
  return undefined
}

// ---------------------------------------------------------------------------------------
// The plan: where each file of test/ goes.

const dest = new Map() // old path → new path (every file of test/, moved or not)
const reasons = new Map()
const unplaced = []
const helpers = []
for (const file of testFiles) {
  const rel = file.slice('test/'.length)
  const folder = rel.includes('/') ? rel.split('/')[0] : undefined
  const override = OVERRIDES[rel]
  if (SETTLED.some((s) => rel.startsWith(s))) {
    dest.set(file, file)
  } else if (override?.to) {
    dest.set(file, `test/${override.to}`); reasons.set(file, 'override')
  } else if (override?.module) {
    const module = findModule(override.module, srcImportsOf(file))
    if (!module) { unplaced.push(`${file}: its override names src/${override.module}.ts, which is not there (nor a file of that name in its feature folder)`); continue }
    dest.set(file, posix.join('test/unit', posix.dirname(posix.relative('src', module)), override.name ?? posix.basename(file)))
    reasons.set(file, `override: ${module}`)
  } else if (folder && KIND_FOLDERS[folder]) {
    dest.set(file, `test/${KIND_FOLDERS[folder]}/${rel.slice(folder.length + 1)}`); reasons.set(file, 'suite by kind')
  } else if (!folder && !file.endsWith('.test.ts')) {
    dest.set(file, `test/support/${rel}`); reasons.set(file, 'shared support')
  } else if (file.endsWith('.test.ts')) {
    placeTest(file)
  } else {
    helpers.push(file)
  }
}

function placeTest (file) {
  const found = deriveModule(file)
  if (!found) {
    const imports = [...srcImportsOf(file).keys()]
    unplaced.push(`${file}: no src module decides (imports ${imports.length > 0 ? imports.join(', ') : 'nothing of src/'})`)
    return
  }
  const dir = found.dir ?? posix.dirname(found.module)
  dest.set(file, posix.join('test/unit', posix.relative('src', dir), posix.basename(file)))
  reasons.set(file, `derived: ${found.why}`)
}

// Helpers go where the files importing them went; to support/ when those went apart.
const importersOf = new Map()
for (const file of testFiles.filter((f) => CODE.test(f))) {
  for (const m of read(file).matchAll(SPEC)) {
    const spec = m[3] ?? m[6]
    const target = posix.normalize(posix.join(posix.dirname(file), spec))
    const helper = variants(target).find((v) => helpers.includes(v))
    if (helper) importersOf.set(helper, [...importersOf.get(helper) ?? [], file])
  }
}
for (let pending = helpers.slice(), round = 0; pending.length > 0 && round < 10; round++) {
  for (const helper of pending.slice()) {
    const importers = importersOf.get(helper) ?? []
    if (importers.some((f) => helpers.includes(f) && !dest.has(f))) continue // placed after its importers
    const places = new Set(importers.map((f) => dest.get(f)).filter(Boolean).map((f) => posix.dirname(f)))
    dest.set(helper, places.size === 1 ? `${[...places][0]}/${posix.basename(helper)}` : `test/support/${posix.basename(helper)}`)
    reasons.set(helper, places.size === 1 ? 'beside the tests that use it' : 'shared support')
    pending.splice(pending.indexOf(helper), 1)
  }
}
for (const helper of helpers) if (!dest.has(helper)) dest.set(helper, `test/support/${posix.basename(helper)}`)

if (unplaced.length > 0) {
  fail(['Not moved: no rule places these test files. Give each an entry in OVERRIDES (scripts/move-tests.mjs):', ...unplaced.map((l) => '  ' + l)])
}
const moves = new Map([...dest].filter(([from, to]) => from !== to))
{
  const seen = new Map()
  const clashes = []
  for (const [from, to] of dest) {
    if (seen.has(to)) clashes.push(`  ${seen.get(to)} and ${from} both → ${to}`)
    seen.set(to, from)
    if (from !== to && exists(to) && !moves.has(to)) clashes.push(`  ${from} → ${to}, which already exists`)
  }
  if (clashes.length > 0) fail(['Not moved: two files would land on one path. Rename one in OVERRIDES:', ...clashes])
}

// A folder moves as a whole when every file in it moved to one folder, keeping their names.
const movedDirs = new Map()
for (const from of moves.keys()) {
  for (let dir = posix.dirname(from); dir !== 'test' && dir !== '.'; dir = posix.dirname(dir)) {
    if (movedDirs.has(dir)) continue
    const inside = testFiles.filter((f) => f.startsWith(dir + '/'))
    const targets = new Set(inside.map((f) => {
      const to = dest.get(f)
      const suffix = f.slice(dir.length)
      return to.endsWith(suffix) ? to.slice(0, to.length - suffix.length) : undefined
    }))
    movedDirs.set(dir, targets.size === 1 && !targets.has(undefined) ? [...targets][0] : null)
  }
}

// Renames recorded in git (an earlier run of this script): followed for an import or a
// mention that names a path no longer there, written before the move (another branch).
const history = new Map()
{
  let current
  const renames = []
  for (const line of git('log', '--reverse', '--format=tformat:commit', '-M', '--name-status', '--diff-filter=R', '--', 'test').split('\n')) {
    if (line === 'commit') { current = []; renames.push(current) } else if (line.startsWith('R')) current.push(line.split('\t').slice(1))
  }
  for (const commit of renames) for (const [from, to] of commit) history.set(from, to)
}
function followHistory (p) {
  for (const v of variants(p)) {
    let at = v
    for (let i = 0; i < 20 && history.has(at); i++) at = history.get(at)
    if (at !== v && exists(at)) return withExtOf(at, p, v)
  }
  return undefined
}
function followHistoryDir (dir) {
  const targets = new Set()
  for (const from of history.keys()) {
    if (!from.startsWith(dir + '/')) continue
    const to = followHistory(from)
    const suffix = from.slice(dir.length)
    targets.add(to && to.endsWith(suffix) ? to.slice(0, to.length - suffix.length) : null)
  }
  return targets.size === 1 && !targets.has(null) ? [...targets][0] : undefined
}
/** The earlier paths of a file, newest first. */
function earlierPaths (p) {
  const out = []
  for (let i = 0, at = p; i < 20; i++) {
    const before = [...history].find(([, to]) => to === at)?.[0]
    if (!before || out.includes(before)) break
    out.push(before); at = before
  }
  return out
}

/** Where a path named before the moves is now: this run's moves, then git's renames. */
function movedTo (p) {
  for (const v of variants(p)) if (moves.has(v)) return withExtOf(moves.get(v), p, v)
  if (movedDirs.get(p)) return movedDirs.get(p)
  return undefined
}
// What the checkout holds once the moves are made.
const afterFiles = new Set([...tracked.filter((f) => !moves.has(f)), ...moves.values()])
const afterDirs = new Set([...afterFiles].flatMap((f) => {
  const dirs = []
  for (let d = posix.dirname(f); d !== '.'; d = posix.dirname(d)) dirs.push(d)
  return dirs
}))
const existsAfter = (p) => variants(p).some((v) => afterFiles.has(v)) || afterDirs.has(p) || (!p.startsWith('test/') && exists(p))

// ---------------------------------------------------------------------------------------
// The report of the plan.

const byReason = [...moves].map(([from, to]) => `  ${from} → ${to}  (${reasons.get(from) ?? ''})`)
process.stdout.write(moves.size === 0 ? 'test/ already mirrors src/: nothing to move.\n' : `Moves (${moves.size}):\n${byReason.join('\n')}\n`)

// ---------------------------------------------------------------------------------------
// Rewriting: relative imports of code, then mentions of test paths in any text.

const reverse = new Map([...moves].map(([from, to]) => [to, from]))
const unresolved = []
const warnings = []

function relativeSpec (fromDir, to) {
  const rel = posix.relative(fromDir, to)
  return rel.startsWith('.') ? rel : './' + rel
}

/** The new specifier for `spec`, written in `file` (now at `now`, written when it was at `was`). */
function rewriteSpec (spec, was, now) {
  const target = posix.normalize(posix.join(posix.dirname(was), spec.replace(/\/$/, '')))
  if (target.startsWith('..') || (was === now && !target.startsWith('test/'))) return spec // nothing of ours
  let to = movedTo(target)
  if (to === undefined && existsAfter(target)) {
    if (was === now) return spec // neither moved: as written
    to = target
  }
  if (to === undefined) {
    // Written for a place this file had before (a branch that edited it there).
    for (const earlier of [was, ...earlierPaths(was)]) {
      const t = posix.normalize(posix.join(posix.dirname(earlier), spec))
      to = movedTo(t) ?? (existsAfter(t) ? t : undefined) ?? followHistory(t) ?? followHistoryDir(t)
      if (to !== undefined) break
    }
  }
  if (to === undefined) { unresolved.push(`${now}: ${spec}`); return spec }
  return relativeSpec(posix.dirname(now), to) + (spec.endsWith('/') ? '/' : '')
}

function rewriteImports (file, text) {
  const was = reverse.get(file) ?? file
  text = text.replace(SPEC, (all, pre, q, spec, pre2, q2, spec2, post) => {
    if (spec !== undefined) return `${pre}${q}${rewriteSpec(spec, was, file)}${q}`
    return `${pre2}${q2}${rewriteSpec(spec2, was, file)}${q2}${post}`
  })
  text = text.replace(SEGMENTS, (all, pre, segments, post) => {
    const parts = [...segments.matchAll(/'([^']*)'/g)].map((m) => m[1])
    const spec = './' + parts.join('/')
    const rewritten = rewriteSpec(spec, was, file)
    if (posix.normalize(rewritten) === posix.normalize(spec)) return all
    const out = posix.normalize(rewritten).split('/').filter((s) => s !== '.' && s !== '')
    return `${pre}${out.map((s) => `, '${s}'`).join('')}${post}`
  })
  return text
}

// A path under test/ in prose, a comment or a string: not part of a longer path (../test/x
// is an import, handled above), ./test/x included; a sentence's full stop is not part of it.
const MENTION = /(?<=^|[^\w./-]|(?<![\w.])\.\/)test\/[\w.\-/]*/g

function rewriteMentions (file, text) {
  return text.replace(MENTION, (found, offset) => {
    const m = found.replace(/\.+$/, '')
    const tail = found.slice(m.length)
    const dir = m.endsWith('/')
    const p = m.replace(/\/+$/, '')
    if (p === 'test' || existsAfter(p)) return found
    const to = movedTo(p) ?? (dir || !extOf(p) ? followHistoryDir(p) : undefined) ?? followHistory(p)
    if (to) return to + (dir ? '/' : '') + tail
    if (!oldTops.has(p.split('/')[1])) return found // not a path of the suite's (prose)
    const line = text.slice(0, offset).split('\n').length
    const splitDir = movedDirs.has(p) ? ' (its files went to several folders: name the one meant)' : ''
    warnings.push(`${file}:${line}: ${m} is not there${splitDir}`)
    return found
  })
}

const oldTops = new Set([...testFiles, ...history.keys()].map((f) => f.split('/')[1]))
const TEXT_SKIP = new Set(['CHANGELOG.md', 'package-lock.json', SELF])
const changed = []
const after = new Map() // new path → text, written after every file is read
for (const file of tracked) {
  const now = moves.get(file) ?? file
  if (TEXT_SKIP.has(file) || file.startsWith('node_modules/')) continue
  let buf
  try { buf = fs.readFileSync(path.join(root, file)) } catch { continue } // deleted, not yet committed
  if (buf.length > 4 * 1024 * 1024 || buf.subarray(0, 8000).includes(0)) continue
  const before = buf.toString('utf8')
  let text = before
  if (CODE.test(file)) text = rewriteImports(now, text)
  text = rewriteMentions(now, text)
  if (text !== before) { changed.push(now); after.set(now, text) }
}

process.stdout.write(changed.length === 0 ? 'No import or mention to rewrite.\n' : `Imports and mentions rewritten in ${changed.length} files:\n${changed.map((f) => '  ' + f).join('\n')}\n`)
if (warnings.length > 0) process.stdout.write(`\nMentions left as they are (look at them):\n${[...new Set(warnings)].map((w) => '  ' + w).join('\n')}\n`)
if (unresolved.length > 0) process.stdout.write(`\nImports naming no file, left as they are:\n${[...new Set(unresolved)].map((w) => '  ' + w).join('\n')}\n`)

if (CHECK) process.exit(moves.size > 0 || changed.length > 0 ? 1 : 0)
if (DRY || (moves.size === 0 && changed.length === 0)) process.exit(0)

for (const [from, to] of moves) {
  fs.mkdirSync(path.dirname(path.join(root, to)), { recursive: true })
  git('mv', from, to)
}
// git mv leaves the folders it emptied behind.
for (const dir of [...new Set([...moves.keys()].map((f) => posix.dirname(f)))].sort().reverse()) {
  for (let d = dir; d !== 'test' && d !== '.'; d = posix.dirname(d)) {
    try { fs.rmdirSync(path.join(root, d)) } catch { break } // not empty
  }
}
for (const [file, text] of after) fs.writeFileSync(path.join(root, file), text)
process.stdout.write(`\nDone: ${moves.size} files moved, ${after.size} rewritten. Next: npx tsc --noEmit -p . && npx eslint . && node scripts/test.mjs unit --sqlite-only --this-node-only\n`)
