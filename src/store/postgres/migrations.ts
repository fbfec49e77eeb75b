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
  }
]
