// Operator tokens, the audit log and idempotency keys of the management API (migration 9).
import type pg from 'pg'
import { type AdminStore, StoreConflictError } from '../interface.js'
import { auditFromRow, type AuditRow, idempotencyFromRow, type IdempotencyRow, operatorTokenFromRow, type OperatorTokenRow } from '../rows.js'

export function createPostgresAdminStore (pool: pg.Pool): AdminStore {
  const store: AdminStore = {
    async createToken ({ name, prefix, hash, scopes }) {
      try {
        const { rows } = await pool.query<OperatorTokenRow>('INSERT INTO operator_tokens (name, prefix, hash, scopes, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING *', [name, prefix, hash, scopes.join(','), Date.now()])
        return operatorTokenFromRow(rows[0]!)
      } catch (err) {
        if ((err as { code?: string }).code === '23505') throw new StoreConflictError('name', `An operator token named "${name}" exists already: revoke it or choose another name`)
        throw err
      }
    },
    async findTokenByHash (hash) {
      const { rows } = await pool.query<OperatorTokenRow>('SELECT * FROM operator_tokens WHERE hash = $1', [hash])
      return rows[0] ? operatorTokenFromRow(rows[0]) : undefined
    },
    async listTokens () {
      return (await pool.query<OperatorTokenRow>('SELECT * FROM operator_tokens ORDER BY id')).rows.map(operatorTokenFromRow)
    },
    async revokeToken (name) {
      const { rows } = await pool.query<OperatorTokenRow>('UPDATE operator_tokens SET status = \'revoked\' WHERE name = $1 RETURNING *', [name])
      return rows[0] ? operatorTokenFromRow(rows[0]) : undefined
    },
    async activeTokenCount () {
      return (await pool.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM operator_tokens WHERE status = \'active\'')).rows[0]!.n
    },
    async touchToken (id, at) {
      await pool.query('UPDATE operator_tokens SET last_used_at = $1 WHERE id = $2', [at.getTime(), id])
    },
    async appendAudit (entry) {
      const { rows } = await pool.query<AuditRow>('INSERT INTO audit_log (at, actor, action, target, details, address) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
        [entry.at.getTime(), entry.actor, entry.action, entry.target, entry.details === null ? null : JSON.stringify(entry.details), entry.address])
      return auditFromRow(rows[0]!)
    },
    async auditEntries ({ beforeId = Number.MAX_SAFE_INTEGER, limit, action }) {
      const { rows } = action === undefined
        ? await pool.query<AuditRow>('SELECT * FROM audit_log WHERE id < $1 ORDER BY id DESC LIMIT $2', [beforeId, limit])
        : await pool.query<AuditRow>('SELECT * FROM audit_log WHERE id < $1 AND action = $2 ORDER BY id DESC LIMIT $3', [beforeId, action, limit])
      return rows.map(auditFromRow)
    },
    async claimIdempotency ({ actor, key, bodyHash, at }) {
      const inserted = await pool.query('INSERT INTO admin_idempotency (actor, idempotency_key, body_hash, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [actor, key, bodyHash, at.getTime()])
      if (inserted.rowCount === 1) return undefined
      const { rows } = await pool.query<IdempotencyRow>('SELECT * FROM admin_idempotency WHERE actor = $1 AND idempotency_key = $2', [actor, key])
      // Released between the two statements: claim again.
      if (!rows[0]) return await store.claimIdempotency({ actor, key, bodyHash, at })
      return idempotencyFromRow(rows[0])
    },
    async completeIdempotency (actor, key, keyId, answer) {
      await pool.query('UPDATE admin_idempotency SET key_id = $1, answer = $2 WHERE actor = $3 AND idempotency_key = $4', [keyId, answer, actor, key])
    },
    async releaseIdempotency (actor, key) {
      await pool.query('DELETE FROM admin_idempotency WHERE actor = $1 AND idempotency_key = $2 AND key_id IS NULL', [actor, key])
    },
    async forgetAnswers (before) {
      return (await pool.query('UPDATE admin_idempotency SET answer = NULL WHERE answer IS NOT NULL AND created_at < $1', [before.getTime()])).rowCount ?? 0
    }
  }
  return store
}
