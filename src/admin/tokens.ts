// Operator tokens: what the management API (/admin/v1/) takes, never an API key. Made by
// `admin tokens create` (shown once, stored as a SHA-256 like keys: 192 random bits need
// no stretching), or ADMIN_TOKEN from the environment, which holds every scope.
import { hash, randomBytes } from 'node:crypto'
import { ADMIN_SCOPES, type AdminScope, type AdminStore, type OperatorToken, StoreConflictError } from '../store/interface.js'

export const OPERATOR_TOKEN_PREFIX = 'umo_'
const TOKEN_RANDOM_BYTES = 24
const SHOWN_PREFIX_LENGTH = OPERATOR_TOKEN_PREFIX.length + 4
/** Longest Authorization value hashed: anything longer is no token of ours. */
const MAX_TOKEN_LENGTH = 512
export const TOKEN_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/
/** The actor ADMIN_TOKEN's changes are written under in the audit log. */
export const ENV_ACTOR = 'ADMIN_TOKEN'

/** Who is calling the management API: written as the actor of every change. */
export interface Operator {
  /** "token:NAME" or "ADMIN_TOKEN". */
  actor: string
  name: string
  scopes: AdminScope[]
  /** The stored token's id; undefined for ADMIN_TOKEN. */
  tokenId?: number
}

export class OperatorTokenError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'OperatorTokenError'
  }
}

export const hashToken = (token: string): string => hash('sha256', token, 'hex')

/** "keys,usage" into scopes; a word that is no scope throws, naming the scopes. */
export function parseScopes (text: string): AdminScope[] {
  const words = text.split(',').map((w) => w.trim().toLowerCase()).filter((w) => w !== '')
  if (words.length === 0) throw new OperatorTokenError(`Name at least one scope: ${ADMIN_SCOPES.join(', ')}`)
  for (const w of words) {
    if (!(ADMIN_SCOPES as readonly string[]).includes(w)) throw new OperatorTokenError(`"${w}" is not a scope: use ${ADMIN_SCOPES.join(', ')} (comma-separated)`)
  }
  return ADMIN_SCOPES.filter((s) => words.includes(s))
}

/** The token of "Bearer <token>" (or a bare one). */
export function tokenFromHeader (value: string): string {
  const m = /^\s*bearer\s+(.*)$/i.exec(value)
  return (m ? m[1]! : value).trim()
}

export type OperatorTokens = ReturnType<typeof createOperatorTokens>

export function createOperatorTokens (store: AdminStore, envToken: string | undefined) {
  const envHash = envToken === undefined ? undefined : hashToken(envToken)

  async function create (name: string, scopes: AdminScope[]): Promise<{ token: string, record: OperatorToken }> {
    if (!TOKEN_NAME_PATTERN.test(name)) throw new OperatorTokenError(`Invalid token name "${name}": use 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit`)
    const token = OPERATOR_TOKEN_PREFIX + randomBytes(TOKEN_RANDOM_BYTES).toString('base64url')
    try {
      const record = await store.createToken({ name, prefix: token.slice(0, SHOWN_PREFIX_LENGTH), hash: hashToken(token), scopes })
      return { token, record }
    } catch (err) {
      if (err instanceof StoreConflictError) throw new OperatorTokenError(err.message)
      throw err
    }
  }

  /**
   * The operator a presented token names, or undefined: an unknown or revoked token, or
   * no operator token at all (an API key). Compared by hash, as keys are.
   */
  async function identify (presented: string): Promise<Operator | undefined> {
    if (presented.length > MAX_TOKEN_LENGTH || !presented.startsWith(OPERATOR_TOKEN_PREFIX)) return undefined
    const h = hashToken(presented)
    if (envHash !== undefined && h === envHash) return { actor: ENV_ACTOR, name: ENV_ACTOR, scopes: [...ADMIN_SCOPES] }
    const record = await store.findTokenByHash(h)
    if (record === undefined || record.status !== 'active') return undefined
    return { actor: `token:${record.name}`, name: record.name, scopes: record.scopes, tokenId: record.id }
  }

  return {
    create,
    identify,
    list: async () => await store.listTokens(),
    revoke: async (name: string) => await store.revokeToken(name),
    touch: async (id: number, at: Date) => await store.touchToken(id, at),
    /** Whether any operator token can be presented at all: ADMIN_TOKEN, or an active stored one. */
    async exist (): Promise<boolean> {
      return envHash !== undefined || await store.activeTokenCount() > 0
    }
  }
}
