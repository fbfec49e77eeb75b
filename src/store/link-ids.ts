// Every key's link id and seed (docs/links.md): made with the key, and given by
// backfillLinkIds to keys made before migration 7, when a store opens.
import { randomBytes } from 'node:crypto'

/** 12 random bytes: 16 characters of base64url, a public id no key or row id can be read from. */
export const newLinkId = (): string => randomBytes(12).toString('base64url')
/** 16 random bytes; the link secret is derived from it and the server's signing key. */
export const newLinkSeed = (): string => randomBytes(16).toString('base64url')
