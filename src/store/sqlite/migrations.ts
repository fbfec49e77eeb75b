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
  },
  {
    version: 6,
    name: 'gif attribution and moderation',
    // Attribution and colour shown beside a pick, the importer's perceptual hash, and
    // hiding: a hidden gif leaves its category's dense positions as a removal does (the
    // category's last entry takes its seq, the count drops, the version rises) but keeps
    // its row, with seq NULL, so that picks stay uniform and one lookup over the visible
    // gifs. seq can only lose NOT NULL by rebuilding the table in SQLite; the rebuild
    // keeps the ids and the AUTOINCREMENT high-water mark (ids are never reused).
    // gif_reports: what keys reported about a gif (the fixed reasons of
    // src/gifs/moderation.ts), removed with the gif.
    sql: `
      CREATE TABLE gifs_new (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        category TEXT NOT NULL,
        seq INTEGER,
        hash TEXT,
        url TEXT,
        size INTEGER NOT NULL,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        frames INTEGER NOT NULL,
        content_type TEXT NOT NULL,
        added_at INTEGER NOT NULL,
        anime_name TEXT,
        artist TEXT,
        artist_url TEXT,
        source_url TEXT,
        dominant_color TEXT CHECK (dominant_color GLOB '#[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
        phash TEXT,
        hidden INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1)),
        CHECK ((hash IS NULL) <> (url IS NULL)),
        CHECK ((seq IS NULL) = (hidden = 1))
      );
      INSERT INTO gifs_new (id, category, seq, hash, url, size, width, height, frames, content_type, added_at)
        SELECT id, category, seq, hash, url, size, width, height, frames, content_type, added_at FROM gifs;
      DELETE FROM sqlite_sequence WHERE name = 'gifs_new';
      INSERT INTO sqlite_sequence (name, seq) SELECT 'gifs_new', seq FROM sqlite_sequence WHERE name = 'gifs';
      DROP TABLE gifs;
      ALTER TABLE gifs_new RENAME TO gifs;
      CREATE UNIQUE INDEX gifs_category_seq ON gifs (category, seq);
      CREATE UNIQUE INDEX gifs_category_hash ON gifs (category, hash) WHERE hash IS NOT NULL;
      CREATE UNIQUE INDEX gifs_category_url ON gifs (category, url) WHERE url IS NOT NULL;
      CREATE INDEX gifs_hash ON gifs (hash) WHERE hash IS NOT NULL;
      CREATE TABLE gif_reports (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        gif_id INTEGER NOT NULL REFERENCES gifs (id) ON DELETE CASCADE,
        key_id INTEGER REFERENCES api_keys (id) ON DELETE SET NULL,
        reason TEXT NOT NULL CHECK (reason IN ('not_sfw', 'wrong_category', 'broken', 'duplicate', 'other')),
        created_at INTEGER NOT NULL
      );
      CREATE INDEX gif_reports_gif ON gif_reports (gif_id);
    `
  },
  {
    version: 7,
    name: 'signed links',
    // Each key's public link id and the seed its link secret is derived from (with the
    // server's signing key, which the database never holds: docs/links.md). Keys made
    // before get theirs from the store when it opens (src/store/link-ids.ts: the ids are
    // random bytes, which SQL cannot write as base64url). minted_links: links whose
    // request is too long for a short URL, kept by POST /links.
    sql: `
      ALTER TABLE api_keys ADD COLUMN link_id TEXT;
      ALTER TABLE api_keys ADD COLUMN link_seed TEXT;
      CREATE UNIQUE INDEX api_keys_link_id ON api_keys (link_id);
      CREATE TABLE minted_links (
        id TEXT PRIMARY KEY,
        key_id INTEGER NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
        target TEXT NOT NULL,
        created_at INTEGER NOT NULL
      ) WITHOUT ROWID;
    `
  },
  {
    version: 8,
    name: 'key owner, expiry, credits and roll',
    // What selling access needs on a key (docs/keys.md): the storefront's customer id and
    // a small JSON object (meta), an expiry (epoch ms), and prepaid credits as a balance:
    // credits_base minus what the key used since credits_mark, read on units_total, a
    // count of every unit the key was ever billed that the usage store raises in the same
    // transaction as its batch write (so a batch applied once is counted once here too).
    // Refill: an amount per UTC day or month, done lazily by one conditional UPDATE at the
    // first check of a new period (refilled_period: the period last refilled, YYYY-MM-DD
    // or YYYY-MM). credits_granted: what was left right after the last grant, for the
    // low-credits level. Roll: the previous hash stays valid until previous_valid_until.
    // units_total starts at what key_usage already holds.
    sql: `
      ALTER TABLE api_keys ADD COLUMN owner TEXT;
      ALTER TABLE api_keys ADD COLUMN meta TEXT;
      ALTER TABLE api_keys ADD COLUMN expires_at INTEGER;
      ALTER TABLE api_keys ADD COLUMN units_total INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE api_keys ADD COLUMN credits_base INTEGER;
      ALTER TABLE api_keys ADD COLUMN credits_mark INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE api_keys ADD COLUMN credits_granted INTEGER;
      ALTER TABLE api_keys ADD COLUMN refill_amount INTEGER CHECK (refill_amount > 0);
      ALTER TABLE api_keys ADD COLUMN refill_period TEXT CHECK (refill_period IN ('day', 'month'));
      ALTER TABLE api_keys ADD COLUMN refilled_period TEXT;
      ALTER TABLE api_keys ADD COLUMN previous_hash TEXT;
      ALTER TABLE api_keys ADD COLUMN previous_valid_until INTEGER;
      UPDATE api_keys SET units_total = COALESCE((SELECT SUM(units) FROM key_usage WHERE key_usage.key_id = api_keys.id), 0);
      CREATE UNIQUE INDEX api_keys_previous_hash ON api_keys (previous_hash) WHERE previous_hash IS NOT NULL;
      CREATE INDEX api_keys_owner ON api_keys (owner) WHERE owner IS NOT NULL;
      CREATE INDEX api_keys_expires_at ON api_keys (expires_at) WHERE expires_at IS NOT NULL;
    `
  },
  {
    version: 9,
    name: 'management api',
    // The management API (src/admin/, docs/admin-api.md): operator tokens (hashed like
    // keys; scopes as a comma-separated list of keys, usage, gifs), the audit log of every
    // change, the Idempotency-Keys of POST /admin/v1/keys per operator with the body's hash,
    // the key made and its answer encrypted (dropped after a day, the key id kept), and when
    // a gif report was dismissed.
    sql: `
      CREATE TABLE operator_tokens (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        scopes TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
        created_at INTEGER NOT NULL,
        last_used_at INTEGER
      );
      CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        target TEXT,
        details TEXT,
        address TEXT
      );
      CREATE INDEX audit_log_action ON audit_log (action, id);
      CREATE TABLE admin_idempotency (
        actor TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        body_hash TEXT NOT NULL,
        key_id INTEGER,
        answer TEXT,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (actor, idempotency_key)
      ) WITHOUT ROWID;
      CREATE INDEX admin_idempotency_created ON admin_idempotency (created_at) WHERE answer IS NOT NULL;
      ALTER TABLE gif_reports ADD COLUMN dismissed_at INTEGER;
    `
  }
]
