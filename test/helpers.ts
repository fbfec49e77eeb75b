// Shared test scaffolding: a fresh data directory and app per test, a working key.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { createApp } from '../src/app.js'
import { type Config, testConfig } from '../src/config.js'
import { createKeyService } from '../src/keys/keys.js'
import { openSqliteStore } from '../src/store/sqlite/index.js'
import type { Store } from '../src/store/interface.js'

export function tempDir (prefix = 'uma-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix))
}

export interface TestApp {
  app: FastifyInstance
  store: Store
  config: Config
  /** A valid, active key. */
  key: string
  /** Authorization header with that key, bare as every existing client sends it. */
  auth: { authorization: string }
  close (): Promise<void>
}

export interface TestAppOptions {
  config?: Partial<Config>
  /** Called with the app before it is ready: tests add probe routes here. */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>
}

export async function createTestApp (options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = tempDir()
  const config = testConfig(dataDir, options.config)
  const store = openSqliteStore(dataDir)
  const { key } = await createKeyService(store.keys).create('test')
  const app = await createApp({ config, store, logger: false })
  await options.beforeReady?.(app)
  await app.ready()
  return {
    app,
    store,
    config,
    key,
    auth: { authorization: key },
    async close () {
      await app.close()
      await store.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/** Parses a JSON answer, failing with the body shown when it is not JSON. */
export function json (res: { body: string }): any {
  try {
    return JSON.parse(res.body)
  } catch {
    throw new Error(`answer is not JSON: ${res.body.slice(0, 200)}`)
  }
}
