// Operator tokens, the audit log and idempotency keys of the management API (migration 9).
import { type AdminStore, StoreConflictError } from '../interface.js'
import { auditFromRow, type AuditRow, idempotencyFromRow, type IdempotencyRow, operatorTokenFromRow, type OperatorTokenRow } from '../rows.js'
import type { SqliteDatabase } from './database.js'

export function createSqliteAdminStore (db: SqliteDatabase): AdminStore {
  const insertToken = db.prepare<[string, string, string, string, number], OperatorTokenRow>('INSERT INTO operator_tokens (name, prefix, hash, scopes, created_at) VALUES (?, ?, ?, ?, ?) RETURNING *')
  const tokenByHash = db.prepare<[string], OperatorTokenRow>('SELECT * FROM operator_tokens WHERE hash = ?')
  const tokens = db.prepare<[], OperatorTokenRow>('SELECT * FROM operator_tokens ORDER BY id')
  const revoke = db.prepare<[string], OperatorTokenRow>('UPDATE operator_tokens SET status = \'revoked\' WHERE name = ? RETURNING *')
  const active = db.prepare('SELECT COUNT(*) FROM operator_tokens WHERE status = \'active\'').pluck()
  const touch = db.prepare<[number, number]>('UPDATE operator_tokens SET last_used_at = ? WHERE id = ?')
  const insertAudit = db.prepare<[number, string, string, string | null, string | null, string | null], AuditRow>('INSERT INTO audit_log (at, actor, action, target, details, address) VALUES (?, ?, ?, ?, ?, ?) RETURNING *')
  const auditPage = db.prepare<[number, number], AuditRow>('SELECT * FROM audit_log WHERE id < ? ORDER BY id DESC LIMIT ?')
  const auditPageOf = db.prepare<[number, string, number], AuditRow>('SELECT * FROM audit_log WHERE id < ? AND action = ? ORDER BY id DESC LIMIT ?')
  const claim = db.prepare<[string, string, string, number]>('INSERT OR IGNORE INTO admin_idempotency (actor, idempotency_key, body_hash, created_at) VALUES (?, ?, ?, ?)')
  const claimed = db.prepare<[string, string], IdempotencyRow>('SELECT * FROM admin_idempotency WHERE actor = ? AND idempotency_key = ?')
  const complete = db.prepare<[number, string | null, string, string]>('UPDATE admin_idempotency SET key_id = ?, answer = ? WHERE actor = ? AND idempotency_key = ?')
  const release = db.prepare<[string, string]>('DELETE FROM admin_idempotency WHERE actor = ? AND idempotency_key = ? AND key_id IS NULL')
  const forget = db.prepare<[number]>('UPDATE admin_idempotency SET answer = NULL WHERE answer IS NOT NULL AND created_at < ?')
  const claimOrRead = db.transaction((actor: string, key: string, bodyHash: string, at: number) => {
    if (claim.run(actor, key, bodyHash, at).changes === 1) return undefined
    return claimed.get(actor, key)
  })
  return {
    async createToken ({ name, prefix, hash, scopes }) {
      try {
        return operatorTokenFromRow(insertToken.get(name, prefix, hash, scopes.join(','), Date.now())!)
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new StoreConflictError('name', `An operator token named "${name}" exists already: revoke it or choose another name`)
        throw err
      }
    },
    async findTokenByHash (hash) {
      const row = tokenByHash.get(hash)
      return row ? operatorTokenFromRow(row) : undefined
    },
    async listTokens () { return tokens.all().map(operatorTokenFromRow) },
    async revokeToken (name) {
      const row = revoke.get(name)
      return row ? operatorTokenFromRow(row) : undefined
    },
    async activeTokenCount () { return active.get() as number },
    async touchToken (id, at) { touch.run(at.getTime(), id) },
    async appendAudit (entry) {
      return auditFromRow(insertAudit.get(entry.at.getTime(), entry.actor, entry.action, entry.target, entry.details === null ? null : JSON.stringify(entry.details), entry.address)!)
    },
    async auditEntries ({ beforeId = Number.MAX_SAFE_INTEGER, limit, action }) {
      return (action === undefined ? auditPage.all(beforeId, limit) : auditPageOf.all(beforeId, action, limit)).map(auditFromRow)
    },
    async claimIdempotency ({ actor, key, bodyHash, at }) {
      const row = claimOrRead.immediate(actor, key, bodyHash, at.getTime())
      return row ? idempotencyFromRow(row) : undefined
    },
    async completeIdempotency (actor, key, keyId, answer) { complete.run(keyId, answer, actor, key) },
    async releaseIdempotency (actor, key) { release.run(actor, key) },
    async forgetAnswers (before) { return forget.run(before.getTime()).changes }
  }
}
