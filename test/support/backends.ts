// The real PostgreSQL and Redis of the development machines and CI (127.0.0.1:5432,
// trust auth, database test; 127.0.0.1:6379). Tests of the scale-out mode use them for
// real, each in its own PostgreSQL schema and Redis key prefix, and skip with a clear
// message only where they are absent.
import { randomBytes } from 'node:crypto'
import net from 'node:net'
import pg from 'pg'

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

function reachable (url: string): Promise<boolean> {
  const u = new URL(url)
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname, port: Number(u.port) }, () => { socket.end(); resolve(true) })
    socket.setTimeout(1000, () => { socket.destroy(); resolve(false) })
    socket.on('error', () => resolve(false))
  })
}

/** undefined when available; otherwise the skip message. */
export async function postgresMissing (): Promise<string | undefined> {
  return (await reachable(TEST_DATABASE_URL)) ? undefined : `PostgreSQL is not reachable at ${TEST_DATABASE_URL}: scale-out tests skipped (set TEST_DATABASE_URL)`
}

export async function redisMissing (): Promise<string | undefined> {
  return (await reachable(TEST_REDIS_URL)) ? undefined : `Redis is not reachable at ${TEST_REDIS_URL}: scale-out tests skipped (set TEST_REDIS_URL)`
}

export function uniqueName (prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`
}

export async function dropSchema (schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await client.connect()
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
  } finally {
    await client.end()
  }
}

/** The URL of the test database with a schema chosen through the search_path. */
export function urlWithSchema (schema: string): string {
  const u = new URL(TEST_DATABASE_URL)
  u.searchParams.set('options', `-c search_path=${schema}`)
  return u.toString()
}
