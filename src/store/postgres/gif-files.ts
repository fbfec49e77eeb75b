// Gif bytes in scale-out mode: the shared gif_contents table holds every gif, so any
// instance can serve any file without a shared disk; each instance keeps its own copy
// under DATA_DIR/gifs (src/store/local-gif-files.ts), made on first use, and serves
// from there. Only the shared table is PostgreSQL: serving a copy this instance holds
// never waits for the store, so gif files keep being served while it is unavailable.
import type pg from 'pg'
import type { GifFileStore } from '../gif-files.js'
import { createLocalGifFileStore, type LocalGifFileStore } from '../local-gif-files.js'
import { maintenanceQuery } from './database.js'

/** Runs a store call under the store's guard (src/store/postgres/guard.ts). */
export type GuardedRun = <T>(call: () => Promise<T>) => Promise<T>

export function createPostgresGifFileStore (pool: pg.Pool, dataDir: string, run: GuardedRun = (call) => call(), local: LocalGifFileStore = createLocalGifFileStore(dataDir)): GifFileStore {
  async function shared (hash: string): Promise<Buffer | undefined> {
    const { rows } = await run(() => pool.query<{ content: Buffer }>('SELECT content FROM gif_contents WHERE hash = $1', [hash]))
    return rows[0]?.content
  }

  return {
    kind: 'postgres',
    async put (hash, bytes) {
      await local.put(hash, bytes)
      // Imports only (the command line, the starter catalog): a large gif over a slow link
      // may take longer to send than a request's QUERY_TIMEOUT_MS.
      await run(() => pool.query(maintenanceQuery('INSERT INTO gif_contents (hash, content) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING', [hash, Buffer.from(bytes)])))
    },
    async open (hash) {
      const file = await local.open(hash)
      if (file !== undefined) return file
      // A gif imported through another instance: copied here once, then served locally.
      // Whatever stood in its place (a link) is replaced by the content, never written through.
      const bytes = await shared(hash)
      if (bytes === undefined) return undefined
      await local.put(hash, bytes)
      return local.open(hash)
    },
    async read (hash) {
      return (await local.read(hash)) ?? shared(hash)
    },
    // Made by each instance from its own copy of the gif (the same build makes the same bytes).
    openDerived: (hash, format) => local.openDerived(hash, format),
    putDerived: (hash, format, bytes) => local.putDerived(hash, format, bytes),
    delete: (hash) => local.delete(hash),
    cleanOrphans: (referenced, options) => local.cleanOrphans(referenced, options)
  }
}
