// SQLite schema, as ordered migrations. Each runs once, inside a transaction, and is
// recorded in schema_migrations; never edit one that has shipped, add the next.
export interface Migration {
  version: number
  name: string
  sql: string
}

export const SQLITE_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'api keys',
    sql: `
      CREATE TABLE api_keys (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled', 'revoked')),
        source TEXT NOT NULL DEFAULT 'cli',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `
  }
]
