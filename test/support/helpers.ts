// Shared test scaffolding: a fresh data directory and app per test, a working key.
import type { AccessEvents } from '../../src/access/events.js'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { createApp } from '../../src/app.js'
import { createColorService, type ColorService } from '../../src/colors/service.js'
import type { Config } from '../../src/config.js'
import type { ErrorCode } from '../../src/errors.js'
import { routeErrorCodes } from '../../src/http/openapi.js'
import { testConfig } from './config.js'
import { createKeyService } from '../../src/access/keys.js'
import { INTERNAL_CREDENTIAL_HEADER } from '../../src/access/internal-credential.js'
import { createMemoryCounterStore } from '../../src/store/counters/memory.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import { openPostgresStore } from '../../src/store/postgres/index.js'
import type { Store } from '../../src/store/interface.js'
import { dropSchema, TEST_DATABASE_URL, uniqueName } from './backends.js'

/**
 * The store the app tests run on: SQLite, or PostgreSQL when TEST_STORE=postgres
 * (npm test runs the store-dependent suites a second time that way).
 */
export const TEST_STORE = process.env.TEST_STORE === 'postgres' ? 'postgres' : 'sqlite'

export async function openTestStore (dataDir: string): Promise<{ store: Store, cleanup: () => Promise<void> }> {
  if (TEST_STORE === 'postgres') {
    const schema = uniqueName('app')
    const store = await openPostgresStore(TEST_DATABASE_URL, { schema, dataDir })
    return { store, cleanup: async () => { await store.close(); await dropSchema(schema) } }
  }
  const store = openSqliteStore(dataDir)
  return { store, cleanup: () => store.close() }
}

export function tempDir (prefix = 'uma-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix))
}

/**
 * Temporary folders made as a file's tests need them and removed together at its end:
 * `const dirs = tempDirs(); after(() => dirs.removeAll())`. Removal restores the owner's
 * rights first, for the tests that take them away.
 */
export function tempDirs (): { make: (prefix?: string) => string, removeAll: () => void } {
  const made: string[] = []
  return {
    make (prefix) {
      const dir = tempDir(prefix)
      made.push(dir)
      return dir
    },
    removeAll () {
      for (const dir of made.splice(0)) {
        fs.chmodSync(dir, 0o700)
        fs.rmSync(dir, { recursive: true, force: true })
      }
    }
  }
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
  /** Logger options (default: no logs). */
  logger?: object
  /** Where the app's access events go (src/access/events.ts). */
  events?: AccessEvents
}

let colors: ColorService | undefined
/** One colour catalogue for every test app of a test file: building it takes about 0.4 s. */
export function sharedColors (): ColorService {
  colors ??= createColorService()
  return colors
}

/**
 * The app over a store the test opened itself (a restart, the CLI's data folder), with the
 * test configuration and this process's counters; the test closes the app, then the store.
 */
export async function createAppOn (store: Store, dataDir: string): Promise<FastifyInstance> {
  return await createApp({ config: testConfig(dataDir), store, counters: createMemoryCounterStore(), logger: false, colors: sharedColors() })
}

export async function createTestApp (options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = tempDir()
  const config = testConfig(dataDir, options.config)
  const { store, cleanup } = await openTestStore(dataDir)
  const { key } = await createKeyService(store.keys).create('test')
  const app = await createApp({ config, store, counters: createMemoryCounterStore(), logger: options.logger ?? false, colors: sharedColors(), ...(options.events === undefined ? {} : { events: options.events }) })
  const undeclared = recordUndeclaredErrors(app)
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
      await cleanup()
      fs.rmSync(dataDir, { recursive: true, force: true })
      if (undeclared.size > 0) {
        throw new Error(`answered error codes its routes do not declare (add them to the route's config.errors, which the OpenAPI document lists): ${[...undeclared].join('; ')}`)
      }
    }
  }
}

/** Codes answered before any route is known: the connection, the URL, no such route. */
const BEFORE_ANY_ROUTE: ReadonlySet<string> = new Set<ErrorCode>(['NOT_FOUND', 'MALFORMED_URL', 'URL_TOO_LONG', 'HEADERS_TOO_LARGE', 'MALFORMED_REQUEST', 'REQUEST_TIMEOUT', 'CLIENT_CLOSED'])

/**
 * Every error a test app answers must be one its route declares: what the OpenAPI
 * document lists for it (routeErrorCodes). Each test app records the ones that are not,
 * and close() fails with them, so that a route answering a new code without declaring
 * it fails the test that made it answer, and the document cannot drift from the code.
 */
function recordUndeclaredErrors (app: FastifyInstance): Set<string> {
  const undeclared = new Set<string>()
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'string' || !payload.startsWith('{')) return payload
    // A signed link's replay (src/links/): its answer is the link route's, which declares what it passes on.
    if (request.headers[INTERNAL_CREDENTIAL_HEADER] !== undefined) return payload
    let code: unknown
    try { code = (JSON.parse(payload) as { error?: unknown }).error } catch { return payload }
    if (typeof code !== 'string' || BEFORE_ANY_ROUTE.has(code)) return payload
    const route = request.routeOptions
    const declared = route.url === undefined ? [] : routeErrorCodes({ config: route.config, schema: route.schema, method: route.method } as never)
    if (!(declared as string[]).includes(code)) undeclared.add(`${request.method} ${route.url ?? request.url}: ${code}`)
    return payload
  })
  return undeclared
}

/** Parses a JSON answer, failing with the body shown when it is not JSON. */
export function json (res: { body: string }): any {
  try {
    return JSON.parse(res.body)
  } catch {
    throw new Error(`answer is not JSON: ${res.body.slice(0, 200)}`)
  }
}
