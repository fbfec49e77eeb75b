// Option values shared by several commands, checked once: a bad one is a UsageError (exit 2).
import { NEAR_DUPLICATE_MODES, type NearDuplicateMode } from '../gifs/catalog-writer.js'
import { UsageError } from './context.js'

export function nearDuplicateMode (value: string | undefined, fallback: NearDuplicateMode): NearDuplicateMode {
  if (value === undefined) return fallback
  if (!(NEAR_DUPLICATE_MODES as readonly string[]).includes(value)) throw new UsageError(`--near-duplicates must be skip, report or keep, got "${value}"`)
  return value as NearDuplicateMode
}

export function positiveInt (value: string | undefined, option: string): number | undefined {
  if (value === undefined) return undefined
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--${option} must be a whole number of at least 1, got "${value}"`)
  return Number(value)
}
