// Checked values of the newer templates' fields (profile, nowplaying): every one bounded,
// every bad value a 400 naming its field and what it takes. Fields come as strings (query
// parameters, the hosted service's clients) or numbers made strings (routes.ts).
import { AppError } from '../../errors.js'
import type { TemplateFields } from './template.js'

function given (f: TemplateFields, field: string): string | undefined {
  const value = f[field]?.trim()
  return value === undefined || value === '' ? undefined : value
}

function invalid (field: string, value: string, expected: string): AppError {
  return new AppError('VALIDATION', `Invalid "${field}": "${value.slice(0, 40)}"; ${expected}`, { details: { field } })
}

/** One of `choices` (case-insensitive), or `fallback` when absent. */
export function choiceField<T extends string> (f: TemplateFields, field: string, choices: readonly T[], fallback: T): T {
  const value = given(f, field)
  if (value === undefined) return fallback
  const found = choices.find((c) => c === value.toLowerCase())
  if (found === undefined) throw invalid(field, value, `use ${choices.slice(0, -1).join(', ')} or ${choices.at(-1)!}`)
  return found
}

/**
 * A number from `min` to `max` (thousands separated by commas allowed, "12,000"), whole
 * when `whole`; `fallback` when absent.
 */
export function numberField (f: TemplateFields, field: string, { min, max, whole = true }: { min: number, max: number, whole?: boolean }, fallback: number): number {
  const value = given(f, field)
  if (value === undefined) return fallback
  const n = /^[+-]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/.test(value) ? Number(value.replace(/,/g, '')) : NaN
  if (!Number.isFinite(n) || n < min || n > max || (whole && !Number.isInteger(n))) {
    throw invalid(field, value, `use a ${whole ? 'whole ' : ''}number from ${min} to ${max}`)
  }
  return n
}

/** An optional number: undefined when absent. */
export function optionalNumber (f: TemplateFields, field: string, bounds: { min: number, max: number, whole?: boolean }): number | undefined {
  return given(f, field) === undefined ? undefined : numberField(f, field, bounds, 0)
}

/** The longest time a track may say (a day: live streams and long mixes included). */
export const MAX_DURATION_SECONDS = 24 * 3600

/** A time in seconds: a number of seconds ("95", "95.5") or a clock ("1:35", "1:02:03"). */
export function durationField (f: TemplateFields, field: string, fallback: number): number {
  const value = given(f, field)
  if (value === undefined) return fallback
  const expected = `use seconds (95) or minutes and seconds (1:35, 1:02:03), at most ${MAX_DURATION_SECONDS / 3600} hours`
  let seconds: number
  const clock = /^(?:(\d{1,2}):)?(\d{1,4}):([0-5]\d)(?:\.\d+)?$/.exec(value)
  if (clock !== null) seconds = Number(clock[1] ?? 0) * 3600 + Number(clock[2]) * 60 + Number(clock[3])
  else seconds = /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN
  if (!Number.isFinite(seconds) || seconds > MAX_DURATION_SECONDS) throw invalid(field, value, expected)
  return Math.floor(seconds)
}

/** Discord's epoch: a snowflake's milliseconds count from 2015-01-01T00:00:00Z. */
const DISCORD_EPOCH_MS = 1_420_070_400_000
const EARLIEST_MS = Date.UTC(1970, 0, 1)
const LATEST_MS = Date.UTC(9999, 11, 31)

/**
 * A date: ISO 8601 ("2021-03-14", "2021-03-14T09:26:53Z"), Unix time in seconds or
 * milliseconds, or a Discord id (snowflake: the date it was made, the account's for a
 * user id); undefined when absent.
 */
export function dateField (f: TemplateFields, field: string): Date | undefined {
  const value = given(f, field)
  if (value === undefined) return undefined
  let ms = NaN
  if (/^\d{17,20}$/.test(value)) ms = Number(BigInt(value) >> 22n) + DISCORD_EPOCH_MS
  else if (/^-?\d{1,16}$/.test(value)) ms = Number(value) * (Math.abs(Number(value)) >= 1e11 ? 1 : 1000)
  else if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/i.test(value)) ms = Date.parse(value)
  if (!Number.isFinite(ms) || ms < EARLIEST_MS || ms > LATEST_MS) {
    throw invalid(field, value, 'use a date (2021-03-14), Unix time in seconds or milliseconds, or a Discord id')
  }
  return new Date(ms)
}

/** A field's text, trimmed; `fallback` when absent. */
export function textField (f: TemplateFields, field: string, fallback = ''): string {
  return given(f, field) ?? fallback
}
