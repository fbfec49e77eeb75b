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
    version: 2,
    name: 'gif catalog',
    // seq is a dense position per category (0..count-1), kept dense on removal by
    // moving the category's last entry into the freed slot: a random pick is one
    // indexed lookup of seq = floor(random * count), whatever the catalog's size.
    sql: `
      CREATE TABLE gifs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        category TEXT NOT NULL,
        seq INTEGER NOT NULL,
        hash TEXT,
        url TEXT,
        size INTEGER NOT NULL,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        frames INTEGER NOT NULL,
        content_type TEXT NOT NULL,
        added_at INTEGER NOT NULL,
        CHECK ((hash IS NULL) <> (url IS NULL))
      );
      CREATE UNIQUE INDEX gifs_category_seq ON gifs (category, seq);
      CREATE UNIQUE INDEX gifs_category_hash ON gifs (category, hash) WHERE hash IS NOT NULL;
      CREATE UNIQUE INDEX gifs_category_url ON gifs (category, url) WHERE url IS NOT NULL;
      CREATE INDEX gifs_hash ON gifs (hash) WHERE hash IS NOT NULL;
      CREATE TABLE gif_categories (
        category TEXT PRIMARY KEY,
        count INTEGER NOT NULL CHECK (count >= 0)
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
  },
  {
    version: 4,
    name: 'gif category versions',
    // Raised by every change of a category's count or positions, in the same
    // transaction: instances keeping the category's entries in memory
    // (src/store/cached-gifs.ts) compare it to know when to drop them.
    sql: `
      ALTER TABLE gif_categories ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
    `
  },
  {
    version: 5,
    name: 'usage batch ids',
    // Each batch of usage is written with its id in the same transaction: a batch retried
    // after a lost reply, or replayed from a spill file, is applied at most once.
    sql: `
      CREATE TABLE usage_batches (
        id TEXT PRIMARY KEY,
        applied_at INTEGER NOT NULL
      ) WITHOUT ROWID;
    `
  }
]
