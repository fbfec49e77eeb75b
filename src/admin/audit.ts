// The audit log: every change made through the management API or the admin CLI, with
// who made it, what, when and from where (docs/admin-api.md, "Audit log").
import type { AdminStore, AuditEntry } from '../store/interface.js'

/** The actor of changes made at the command line. */
export const CLI_ACTOR = 'cli'

export interface AuditWrite {
  actor: string
  action: string
  target?: string | null
  details?: Record<string, unknown> | null
  address?: string | null
}

export type AuditLog = ReturnType<typeof createAuditLog>

export function createAuditLog (store: AdminStore, now: () => number = Date.now) {
  return {
    async write (entry: AuditWrite): Promise<AuditEntry> {
      return await store.appendAudit({ at: new Date(now()), actor: entry.actor, action: entry.action, target: entry.target ?? null, details: entry.details ?? null, address: entry.address ?? null })
    },
    async read (options: { beforeId?: number, limit: number, action?: string }): Promise<AuditEntry[]> {
      return await store.auditEntries(options)
    }
  }
}
