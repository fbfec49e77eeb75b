#!/usr/bin/env node
// Makes a fresh clone runnable: installs the locked dependencies when node_modules is
// missing or older than package-lock.json, and compiles src/ to dist/ and bundles the
// browser pages of web/ into dist/web/ (scripts/build-web.mjs) when any source is newer
// than the last build. Quiet when there is nothing to do; speaks on stderr
// so that a command's own output (a new key on the last line, say) stays clean.
// Uses only Node's standard library: it runs before the dependencies exist.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const args = new Set(process.argv.slice(2))
const log = (text) => process.stderr.write(`[prepare] ${text}\n`)

function mtime (file) {
  try { return fs.statSync(file).mtimeMs } catch { return 0 }
}

function newestIn (dir) {
  let newest = 0
  if (!fs.existsSync(dir)) return 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, mtime(path.join(entry.parentPath ?? entry.path, entry.name)))
  }
  return newest
}

function run (command, argv) {
  const result = spawnSync(command, argv, { cwd: root, stdio: ['ignore', process.stderr, 'inherit'] })
  if (result.status !== 0) {
    log(`"${command} ${argv.join(' ')}" failed (exit ${result.status ?? result.signal})`)
    process.exit(result.status ?? 1)
  }
}

const installed = path.join(root, 'node_modules', '.package-lock.json')
if (mtime(installed) < mtime(path.join(root, 'package-lock.json'))) {
  // `npm install`, which installs the versions package-lock.json records, rather than
  // `npm ci`: the registry serves @napi-rs/canvas 1.1.1 without some of the platform
  // builds it lists as optional (darwin, windows, musl), and npm ci refuses a lock file
  // without them although no install on this platform needs them.
  log('installing dependencies (npm install, from package-lock.json): the first time takes a few minutes, as better-sqlite3 compiles')
  run('npm', ['install', '--no-audit', '--no-fund'])
}

// A production image ships dist/ without src/ (Dockerfile): nothing to compile there.
if (!args.has('--no-build') && fs.existsSync(path.join(root, 'src'))) {
  const stamp = path.join(root, 'dist', '.build-stamp')
  const sources = Math.max(newestIn(path.join(root, 'src')), newestIn(path.join(root, 'web')), mtime(path.join(root, 'scripts', 'build-web.mjs')), mtime(path.join(root, 'tsconfig.json')), mtime(path.join(root, 'tsconfig.build.json')), mtime(installed))
  if (mtime(stamp) < sources) {
    // Built beside dist/ and swapped in whole: a server or CLI started from dist/ while
    // this runs (another test file, another terminal) finds the old build or the new one,
    // never a folder half deleted or half written, nor a stamp over a partial build.
    const dist = path.join(root, 'dist')
    const next = path.join(root, `.dist-next-${process.pid}`)
    const old = path.join(root, `.dist-old-${process.pid}`)
    fs.rmSync(next, { recursive: true, force: true })
    log('compiling TypeScript (src/ → dist/)')
    run(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--outDir', next])
    log('bundling the browser pages (web/ → dist/web/)')
    run(process.execPath, [path.join(root, 'scripts', 'build-web.mjs'), '--out', next])
    fs.writeFileSync(path.join(next, '.build-stamp'), new Date().toISOString() + '\n')
    if (fs.existsSync(dist)) fs.renameSync(dist, old)
    fs.renameSync(next, dist)
    fs.rmSync(old, { recursive: true, force: true })
  }
}
