// libuv's thread pool, sized for the server before Node starts: libuv reads
// UV_THREADPOOL_SIZE once, when the pool first runs, which is before any of the server's
// own code. sharp runs each image conversion on that pool, and so do the server's file
// reads (gif files are streamed from disk) and the remote fetcher's DNS lookups. With no
// thread beyond the IMAGE_CONCURRENCY conversions those wait behind conversions: on a
// 4-core machine (IMAGE_CONCURRENCY 4 and libuv's default of 4 threads) a gif answer took
// 530–690 ms during four conversions, 11–25 ms with six threads (docs/operations.md,
// "libuv's thread pool").
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import util from 'node:util'

/** Threads beyond the conversions: file reads, DNS lookups, sharp's header reads. */
export const SPARE_THREADS = 2
/** libuv's own default, kept as the least. */
const LIBUV_DEFAULT_THREADS = 4
/** libuv's most. */
const LIBUV_MAX_THREADS = 1024

/**
 * The variables the server will see: the environment's, else those of the settings file
 * it loads (ENV_FILE, or .env in the working directory; src/env-file.ts).
 */
function settings (env, cwd) {
  let file = {}
  const named = env.ENV_FILE?.trim()
  try {
    file = util.parseEnv(fs.readFileSync(path.resolve(cwd, named || '.env'), 'utf8'))
  } catch {
    // No file, or one the server will refuse with its own message.
  }
  return (name) => env[name] !== undefined && env[name] !== '' ? env[name] : file[name]
}

/**
 * The environment to start the server with: UV_THREADPOOL_SIZE at IMAGE_CONCURRENCY (the
 * number of cores by default) plus SPARE_THREADS, at least libuv's default of 4; an
 * operator's own UV_THREADPOOL_SIZE is kept. With a line saying which.
 */
export function threadPoolEnv (env = process.env, cwd = process.cwd()) {
  const setting = settings(env, cwd)
  const own = setting('UV_THREADPOOL_SIZE')
  if (own !== undefined) return { env: { ...env, UV_THREADPOOL_SIZE: own }, line: `libuv thread pool: ${own} threads (UV_THREADPOOL_SIZE)` }
  const asked = Number(setting('IMAGE_CONCURRENCY'))
  // A value the server refuses stops its start with a message naming it; the pool does not matter then.
  const conversions = Number.isInteger(asked) && asked >= 1 ? asked : os.availableParallelism()
  const size = Math.min(LIBUV_MAX_THREADS, Math.max(LIBUV_DEFAULT_THREADS, conversions + SPARE_THREADS))
  return { env: { ...env, UV_THREADPOOL_SIZE: String(size) }, line: `libuv thread pool: ${size} threads (IMAGE_CONCURRENCY ${conversions} + ${SPARE_THREADS})` }
}
