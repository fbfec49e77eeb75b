// Where a gif's bytes are stored: one interface, one file per implementation.
//   - src/store/local-gif-files.ts: DATA_DIR/gifs/<sha256>.gif on this machine's disk
//     (SQLite mode: the disk is the only copy).
//   - src/store/postgres/gif-files.ts: the same local folder, plus the shared
//     gif_contents table in PostgreSQL; an instance copies a gif it lacks from there
//     into its folder on first use (scale-out mode: no shared disk needed).
// The store factory (src/store/index.ts) opens the right one beside the catalog; the
// importer, the starter catalog, removals and the file route only see this interface.
import { createHash } from 'node:crypto'
import type fs from 'node:fs'

/** A stored gif's name is the hex SHA-256 of its content, computed by us, never taken from a request. */
export const HASH_PATTERN = /^[0-9a-f]{64}$/

export function sha256 (bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** A gif opened for reading: a regular file of this machine, never reached through a link. */
export interface OpenGifFile {
  readonly handle: fs.promises.FileHandle
  readonly size: number
  close (): Promise<void>
}

/**
 * Formats made from a stored gif, kept beside it on each machine as <sha256>.<format>
 * (src/gifs/webp.ts makes them): never shared through PostgreSQL, since every instance
 * makes the same bytes from the same gif with the same build.
 */
export const DERIVED_FORMATS = ['webp'] as const
export type DerivedFormat = typeof DERIVED_FORMATS[number]

export interface GifFileStore {
  /** 'local' (DATA_DIR/gifs only) or 'postgres' (DATA_DIR/gifs plus the shared table). */
  readonly kind: 'local' | 'postgres'
  /** Stores the bytes under their hash (temp file + rename: a reader never sees half a file); a copy already there is kept. */
  put (hash: string, bytes: Uint8Array): Promise<void>
  /**
   * Opens a gif for reading, or undefined when it is not stored. A link, a directory
   * or anything but a regular file in its place counts as not stored.
   */
  open (hash: string): Promise<OpenGifFile | undefined>
  /** The whole content, or undefined when it is not stored. */
  read (hash: string): Promise<Buffer | undefined>
  /** Opens this machine's copy of a format made from the gif, as `open` does; undefined when not made yet. */
  openDerived (hash: string, format: DerivedFormat): Promise<OpenGifFile | undefined>
  /** Stores a format made from the gif (temp file + rename). */
  putDerived (hash: string, format: DerivedFormat, bytes: Uint8Array): Promise<void>
  /**
   * Deletes this machine's copy and the formats made from it (a missing one is not an
   * error). The shared copy in PostgreSQL is kept: an import running elsewhere may be
   * about to refer to it again.
   */
  delete (hash: string): Promise<void>
  /**
   * Deletes what an interrupted import or removal left on this machine: temp files, and
   * files no catalog entry refers to, when older than `graceMs`. Returns the names deleted.
   */
  cleanOrphans (referenced: ReadonlySet<string>, options?: { graceMs?: number, now?: number }): Promise<string[]>
}
