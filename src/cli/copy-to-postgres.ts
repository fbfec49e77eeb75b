// Moving an install from SQLite to PostgreSQL (`npm run cli -- store copy-to-postgres`):
// keys (with their hashes, limits and ids), usage, the gif catalog (same ids, so gif ids
// clients have seen stay valid) and the gifs' bytes, in one PostgreSQL transaction. The
// store reads and writes rows (src/store/sqlite/export.ts, src/store/postgres/import.ts)
// and the gifs' bytes (src/store/local-gif-files.ts); this file decides what moves.
import { createLocalGifFileStore } from '../store/local-gif-files.js'
import { openPostgresImport } from '../store/postgres/import.js'
import { INSTALL_TABLES, type InstallTable } from '../store/rows.js'
import { openSqliteExport } from '../store/sqlite/export.js'

export interface CopyReport { keys: number, usageRows: number, gifs: number, files: number, missingFiles: string[] }

/** The copy cannot be done as asked; the message says what to do. */
export class CopyError extends Error {}

export async function copySqliteToPostgres (dataDir: string, databaseUrl: string, progress: (text: string) => void): Promise<CopyReport> {
  const source = openSqliteExport(dataDir)
  const files = createLocalGifFileStore(dataDir)
  const report: CopyReport = { keys: 0, usageRows: 0, gifs: 0, files: 0, missingFiles: [] }
  let target
  try {
    target = await openPostgresImport(databaseUrl)
  } catch (err) {
    source.close()
    throw err
  }
  try {
    const taken = await target.nonEmptyTable()
    if (taken !== undefined) throw new CopyError(`The target database already has rows in ${taken}: copy into an empty database (or schema)`)
    await target.begin()
    for (const table of Object.keys(INSTALL_TABLES) as InstallTable[]) {
      const rows = source.rows(table)
      await target.insert(table, rows)
      progress(`${table}: ${rows.length} rows`)
      if (table === 'api_keys') report.keys = rows.length
      if (table === 'key_usage') report.usageRows = rows.length
      if (table === 'gifs') report.gifs = rows.length
    }
    const hashes = source.gifHashes()
    for (const [i, hash] of hashes.entries()) {
      const bytes = await files.read(hash)
      if (bytes === undefined) {
        report.missingFiles.push(hash)
        continue
      }
      await target.putGifContent(hash, bytes)
      report.files++
      if ((i + 1) % 100 === 0 || i + 1 === hashes.length) progress(`gif files: ${i + 1}/${hashes.length}`)
    }
    if (report.missingFiles.length > 0) {
      throw new CopyError(`${report.missingFiles.length} gif files of the catalog are missing from ${files.dir} (first: ${report.missingFiles[0]}.gif): restore them or remove those gifs ("gifs remove"), then copy again`)
    }
    await target.commit()
    return report
  } catch (err) {
    await target.rollback()
    throw err
  } finally {
    await target.close()
    source.close()
  }
}
