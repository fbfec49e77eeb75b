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
  },
  {
    version: 3,
    name: 'key limits and usage',
    sql: `
      ALTER TABLE api_keys ADD COLUMN rate_max INTEGER;
      ALTER TABLE api_keys ADD COLUMN rate_window_ms INTEGER;
      ALTER TABLE api_keys ADD COLUMN quota_max INTEGER;
      ALTER TABLE api_keys ADD COLUMN quota_period TEXT CHECK (quota_period IN ('day', 'month'));
      CREATE TABLE key_usage (
        key_id INTEGER NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
        day TEXT NOT NULL,
        endpoint_group TEXT NOT NULL,
        requests INTEGER NOT NULL DEFAULT 0,
        units INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (key_id, day, endpoint_group)
      ) WITHOUT ROWID;
    `
  }
]
