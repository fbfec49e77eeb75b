#!/usr/bin/env node
// Prints the OpenAPI document (/openapi.json) of the built server (dist/), without
// listening: the app is built in-process over a throwaway data directory. Used by
// clients/typescript to regenerate its types: node scripts/openapi.mjs > openapi.json
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { spawnSync } from 'node:child_process'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const prepare = spawnSync(process.execPath, [path.join(root, 'scripts', 'prepare.mjs')], { cwd: root, stdio: ['ignore', process.stderr, 'inherit'] })
if (prepare.status !== 0) process.exit(prepare.status ?? 1)

const { createApp } = await import(path.join(root, 'dist', 'app.js'))
const { loadConfig } = await import(path.join(root, 'dist', 'config.js'))
const { openSqliteStore } = await import(path.join(root, 'dist', 'store', 'sqlite', 'index.js'))
const { createMemoryCounterStore } = await import(path.join(root, 'dist', 'store', 'counters', 'memory.js'))

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-openapi-'))
try {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:3000' })
  const store = openSqliteStore(dataDir)
  const app = await createApp({ config, store, counters: createMemoryCounterStore(), logger: false })
  await app.ready()
  const res = await app.inject({ method: 'GET', url: '/openapi.json' })
  process.stdout.write(JSON.stringify(JSON.parse(res.body), null, 2) + '\n')
  await app.close()
  await store.close()
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true })
}
