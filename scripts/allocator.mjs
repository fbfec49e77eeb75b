// Where Debian's jemalloc is (package libjemalloc2), if installed. glibc's malloc keeps
// the memory sharp/libvips and the canvas free in per-thread arenas and rarely hands it
// back; jemalloc returns it (docs/memory.md, "Allocator").
// sharp recommends it on glibc: https://sharp.pixelplumbing.com/install#linux-memory-allocator
import fs from 'node:fs'
import path from 'node:path'

const LIB_DIR = '/usr/lib'
/**
 * jemalloc returns freed pages on a timer, but without its background thread only when
 * the same arena allocates again: arenas of libvips threads idle after a load kept
 * theirs. With the thread, freed memory goes back within a second. Each thread's cache
 * keeps freed blocks of up to 1 KB only (jemalloc's default: 32 KB): the caches of every
 * thread that ever ran (libvips', the workers', V8's) added up, for no measurable gain in
 * speed (docs/memory.md, "Allocator").
 */
const JEMALLOC_CONF = 'background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0,tcache_max:1024'
const JEMALLOC = 'libjemalloc.so.2'

/**
 * V8 flags the server runs with. The main thread's young generation in 1 MB semi-spaces
 * (V8's default grows them to 16 MB): what the start-up work and a burst of requests grew
 * stays resident, and the request path keeps its rate with 1 MB (docs/memory.md, "V8's
 * young generation"). Worker threads size theirs themselves (WORKER_YOUNG_MB,
 * src/work/pool.ts). Not added when NODE_OPTIONS sets the size. --expose-gc: the server
 * collects once started, on the event loop half a second after requests that grew its
 * heap, and in worker threads gone quiet (src/runtime/garbage.ts).
 */
export function serverNodeFlags (env = process.env) {
  const semiSpace = env.NODE_OPTIONS?.includes('max-semi-space-size') ? [] : ['--max-semi-space-size=1']
  return [...semiSpace, '--expose-gc']
}

/** The first /usr/lib/<multiarch>/libjemalloc.so.2 (or /usr/lib/libjemalloc.so.2), or undefined. */
export function findJemalloc () {
  const candidates = [path.join(LIB_DIR, JEMALLOC)]
  try {
    for (const entry of fs.readdirSync(LIB_DIR, { withFileTypes: true })) {
      if (entry.isDirectory() && entry.name.endsWith('-linux-gnu')) candidates.unshift(path.join(LIB_DIR, entry.name, JEMALLOC))
    }
  } catch {}
  return candidates.find((file) => fs.existsSync(file))
}

/**
 * The environment to start the server with: LD_PRELOAD of jemalloc when it is installed
 * (kept as is when the operator preloads something already), and a line saying which
 * allocator the server runs on.
 */
export function allocatorEnv (env = process.env) {
  if (env.LD_PRELOAD?.includes('jemalloc')) return { env, line: `allocator: jemalloc (LD_PRELOAD=${env.LD_PRELOAD})` }
  const lib = findJemalloc()
  if (lib === undefined) {
    return { env, line: 'allocator: glibc malloc (install libjemalloc2 for a server that hands memory back after load)' }
  }
  const preload = env.LD_PRELOAD ? `${lib}:${env.LD_PRELOAD}` : lib
  // An operator's own MALLOC_CONF is kept.
  return { env: { ...env, LD_PRELOAD: preload, MALLOC_CONF: env.MALLOC_CONF ?? JEMALLOC_CONF }, line: `allocator: jemalloc (${lib})` }
}
