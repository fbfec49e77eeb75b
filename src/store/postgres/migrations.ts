// PostgreSQL schema: the same migrations as SQLite (src/store/sqlite/migrations.ts),
// version for version and name for name, in PostgreSQL's dialect. A test checks that
// the two lists stay in step.
import type { Migration } from '../sqlite/migrations.js'

export const POSTGRES_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'api keys',
    sql: `
      CREATE TABLE api_keys (
        id BIGSERIAL PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled', 'revoked')),
        source TEXT NOT NULL DEFAULT 'cli',
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
    `
  },
  {
    version: 2,
    name: 'gif catalog',
    // As in SQLite, plus gif_contents: the bytes of each gif, so that every instance
    // can serve every file without a shared disk (each keeps a copy under DATA_DIR).
    sql: `
      CREATE TABLE gifs (
        id BIGSERIAL PRIMARY KEY,
        category TEXT NOT NULL,
        seq INTEGER NOT NULL,
        hash TEXT,
        url TEXT,
        size BIGINT NOT NULL,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        frames INTEGER NOT NULL,
        content_type TEXT NOT NULL,
        added_at BIGINT NOT NULL,
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
      CREATE TABLE gif_contents (
        hash TEXT PRIMARY KEY,
        content BYTEA NOT NULL
      );
    `
  },
  {
    version: 3,
    name: 'key limits and usage',
    sql: `
      ALTER TABLE api_keys ADD COLUMN rate_max INTEGER;
      ALTER TABLE api_keys ADD COLUMN rate_window_ms BIGINT;
      ALTER TABLE api_keys ADD COLUMN quota_max BIGINT;
      ALTER TABLE api_keys ADD COLUMN quota_period TEXT CHECK (quota_period IN ('day', 'month'));
      CREATE TABLE key_usage (
        key_id BIGINT NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
        day TEXT NOT NULL,
        endpoint_group TEXT NOT NULL,
        requests BIGINT NOT NULL DEFAULT 0,
        units BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (key_id, day, endpoint_group)
      );
    `
  },
  {
    version: 4,
    name: 'gif category versions',
    sql: `
      ALTER TABLE gif_categories ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
    `
  },
  {
    version: 5,
    name: 'usage batch ids',
    sql: `
      CREATE TABLE usage_batches (
        id TEXT PRIMARY KEY,
        applied_at BIGINT NOT NULL
      );
    `
  },
  {
    version: 6,
    name: 'gif attribution and moderation',
    // As in SQLite: a hidden gif keeps its row with seq NULL, out of the dense positions.
    sql: `
      ALTER TABLE gifs ALTER COLUMN seq DROP NOT NULL;
      ALTER TABLE gifs ADD COLUMN anime_name TEXT;
      ALTER TABLE gifs ADD COLUMN artist TEXT;
      ALTER TABLE gifs ADD COLUMN artist_url TEXT;
      ALTER TABLE gifs ADD COLUMN source_url TEXT;
      ALTER TABLE gifs ADD COLUMN dominant_color TEXT CHECK (dominant_color ~ '^#[0-9a-f]{6}$');
      ALTER TABLE gifs ADD COLUMN phash TEXT;
      ALTER TABLE gifs ADD COLUMN hidden BOOLEAN NOT NULL DEFAULT false;
      ALTER TABLE gifs ADD CONSTRAINT gifs_hidden_seq CHECK ((seq IS NULL) = hidden);
      CREATE TABLE gif_reports (
        id BIGSERIAL PRIMARY KEY,
        gif_id BIGINT NOT NULL REFERENCES gifs (id) ON DELETE CASCADE,
        key_id BIGINT REFERENCES api_keys (id) ON DELETE SET NULL,
        reason TEXT NOT NULL CHECK (reason IN ('not_sfw', 'wrong_category', 'broken', 'duplicate', 'other')),
        created_at BIGINT NOT NULL
      );
      CREATE INDEX gif_reports_gif ON gif_reports (gif_id);
    `
  },
  {
    version: 7,
    name: 'signed links',
    // As in SQLite: link ids of older keys are written by the store when it opens.
    sql: `
      ALTER TABLE api_keys ADD COLUMN link_id TEXT;
      ALTER TABLE api_keys ADD COLUMN link_seed TEXT;
      CREATE UNIQUE INDEX api_keys_link_id ON api_keys (link_id);
      CREATE TABLE minted_links (
        id TEXT PRIMARY KEY,
        key_id BIGINT NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
        target TEXT NOT NULL,
        created_at BIGINT NOT NULL
      );
    `
  },
  {
    version: 8,
    name: 'key owner, expiry, credits and roll',
    // As in SQLite (src/store/sqlite/migrations.ts, version 8).
    sql: `
      ALTER TABLE api_keys ADD COLUMN owner TEXT;
      ALTER TABLE api_keys ADD COLUMN meta TEXT;
      ALTER TABLE api_keys ADD COLUMN expires_at BIGINT;
      ALTER TABLE api_keys ADD COLUMN units_total BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE api_keys ADD COLUMN credits_base BIGINT;
      ALTER TABLE api_keys ADD COLUMN credits_mark BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE api_keys ADD COLUMN credits_granted BIGINT;
      ALTER TABLE api_keys ADD COLUMN refill_amount BIGINT CHECK (refill_amount > 0);
      ALTER TABLE api_keys ADD COLUMN refill_period TEXT CHECK (refill_period IN ('day', 'month'));
      ALTER TABLE api_keys ADD COLUMN refilled_period TEXT;
      ALTER TABLE api_keys ADD COLUMN previous_hash TEXT;
      ALTER TABLE api_keys ADD COLUMN previous_valid_until BIGINT;
      UPDATE api_keys SET units_total = COALESCE((SELECT SUM(units) FROM key_usage WHERE key_usage.key_id = api_keys.id), 0);
      CREATE UNIQUE INDEX api_keys_previous_hash ON api_keys (previous_hash) WHERE previous_hash IS NOT NULL;
      CREATE INDEX api_keys_owner ON api_keys (owner) WHERE owner IS NOT NULL;
      CREATE INDEX api_keys_expires_at ON api_keys (expires_at) WHERE expires_at IS NOT NULL;
    `
  },
  {
    version: 9,
    name: 'management api',
    // As in SQLite.
    sql: `
      CREATE TABLE operator_tokens (
        id BIGSERIAL PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        scopes TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
        created_at BIGINT NOT NULL,
        last_used_at BIGINT
      );
      CREATE TABLE audit_log (
        id BIGSERIAL PRIMARY KEY,
        at BIGINT NOT NULL,
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
        key_id BIGINT,
        answer TEXT,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (actor, idempotency_key)
      );
      CREATE INDEX admin_idempotency_created ON admin_idempotency (created_at) WHERE answer IS NOT NULL;
      ALTER TABLE gif_reports ADD COLUMN dismissed_at BIGINT;
    `
  }
]
