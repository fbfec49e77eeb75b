// The `format` of a date text in /gen/custom: .NET date and time format strings, as the
// hosted service (ASP.NET) formats them with the invariant culture, for a DateTime of
// kind Utc. Rules from Microsoft's "Standard date and time format strings" and "Custom
// date and time format strings" (learn.microsoft.com/dotnet/standard/base-types/):
// a format of one character is a standard format; anything else is a custom format
// whose specifiers repeat a letter, with '…' and "…" literals, \ escapes and % to use a
// custom specifier alone. JavaScript dates carry milliseconds: f digits past the third
// are 0, as they are for a DateTime made from Unix seconds or a Discord snowflake.

export class DateFormatError extends Error {
  constructor (readonly format: string, reason: string) {
    super(`"${format.slice(0, 40)}" is not a .NET date format: ${reason}`)
    this.name = 'DateFormatError'
  }
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/** The invariant culture's patterns of the standard formats. */
const STANDARD: Readonly<Record<string, string>> = {
  d: 'MM/dd/yyyy',
  D: 'dddd, dd MMMM yyyy',
  f: 'dddd, dd MMMM yyyy HH:mm',
  F: 'dddd, dd MMMM yyyy HH:mm:ss',
  g: 'MM/dd/yyyy HH:mm',
  G: 'MM/dd/yyyy HH:mm:ss',
  m: 'MMMM dd',
  M: 'MMMM dd',
  o: "yyyy'-'MM'-'dd'T'HH':'mm':'ss'.'fffffffK",
  O: "yyyy'-'MM'-'dd'T'HH':'mm':'ss'.'fffffffK",
  r: "ddd, dd MMM yyyy HH':'mm':'ss 'GMT'",
  R: "ddd, dd MMM yyyy HH':'mm':'ss 'GMT'",
  s: "yyyy'-'MM'-'dd'T'HH':'mm':'ss",
  t: 'HH:mm',
  T: 'HH:mm:ss',
  u: "yyyy'-'MM'-'dd HH':'mm':'ss'Z'",
  U: 'dddd, dd MMMM yyyy HH:mm:ss',
  y: 'yyyy MMMM',
  Y: 'yyyy MMMM'
}

/** Formats `date` (taken in UTC) with a .NET standard or custom format string. */
export function formatDotNetDate (date: Date, format: string): string {
  if (format.length === 0) return formatCustom(date, STANDARD.G!, 'G')
  if (format.length === 1) {
    const pattern = Object.hasOwn(STANDARD, format) ? STANDARD[format] : undefined
    if (pattern === undefined) throw new DateFormatError(format, `a format of one character is a standard format (${Object.keys(STANDARD).join(' ')}); write %${format} for the custom specifier alone`)
    return formatCustom(date, pattern, format)
  }
  return formatCustom(date, format, format)
}

function pad (n: number, width: number): string {
  const digits = String(Math.abs(n)).padStart(width, '0')
  return n < 0 ? `-${digits}` : digits
}

function formatCustom (date: Date, format: string, original: string): string {
  const hour = date.getUTCHours()
  const fraction = String(date.getUTCMilliseconds()).padStart(3, '0') + '0000' // seven digits, as .NET ticks
  let out = ''
  let i = 0
  while (i < format.length) {
    const c = format[i]!
    let n = 1
    while (format[i + n] === c) n++
    switch (c) {
      case 'd':
        out += n === 1 ? String(date.getUTCDate()) : n === 2 ? pad(date.getUTCDate(), 2) : n === 3 ? DAYS[date.getUTCDay()]!.slice(0, 3) : DAYS[date.getUTCDay()]!
        break
      case 'f':
      case 'F': {
        if (n > 7) throw new DateFormatError(original, `at most seven "${c}"`)
        let digits = fraction.slice(0, n)
        if (c === 'F') {
          digits = digits.replace(/0+$/, '')
          // .NET drops the separator before an empty F fraction ("ss.FFF" of a whole second is "30").
          if (digits === '' && out.endsWith('.')) out = out.slice(0, -1)
        }
        out += digits
        break
      }
      case 'g':
        out += 'A.D.'
        break
      case 'h':
        out += n === 1 ? String(hour % 12 || 12) : pad(hour % 12 || 12, 2)
        break
      case 'H':
        out += n === 1 ? String(hour) : pad(hour, 2)
        break
      case 'K':
        n = 1
        out += 'Z'
        break
      case 'm':
        out += n === 1 ? String(date.getUTCMinutes()) : pad(date.getUTCMinutes(), 2)
        break
      case 'M':
        out += n === 1 ? String(date.getUTCMonth() + 1) : n === 2 ? pad(date.getUTCMonth() + 1, 2) : n === 3 ? MONTHS[date.getUTCMonth()]!.slice(0, 3) : MONTHS[date.getUTCMonth()]!
        break
      case 's':
        out += n === 1 ? String(date.getUTCSeconds()) : pad(date.getUTCSeconds(), 2)
        break
      case 't':
        out += n === 1 ? (hour < 12 ? 'A' : 'P') : (hour < 12 ? 'AM' : 'PM')
        break
      case 'y': {
        const year = date.getUTCFullYear()
        out += n === 1 ? String(year % 100) : n === 2 ? pad(year % 100, 2) : pad(year, n)
        break
      }
      case 'z':
        out += n === 1 ? '+0' : n === 2 ? '+00' : '+00:00'
        break
      case ':':
      case '/':
        n = 1
        out += c
        break
      case "'":
      case '"': {
        const end = closingQuote(format, i + 1, c)
        if (end === -1) throw new DateFormatError(original, `the quote ${c} at position ${i + 1} is never closed`)
        out += format.slice(i + 1, end).replace(/\\(.)/g, '$1')
        n = end - i + 1
        break
      }
      case '\\':
        if (i + 1 >= format.length) throw new DateFormatError(original, 'it ends with a lone \\')
        out += format[i + 1]
        n = 2
        break
      case '%': {
        const next = format[i + 1]
        if (next === undefined || next === '%') throw new DateFormatError(original, '% must be followed by one custom specifier')
        // "%d" is the custom d alone: format that character (and its repeats) as a custom format.
        out += formatCustom(date, next, original)
        n = 2
        break
      }
      default:
        out += c.repeat(n)
    }
    i += n
  }
  return out
}

function closingQuote (format: string, from: number, quote: string): number {
  for (let i = from; i < format.length; i++) {
    if (format[i] === '\\') { i++; continue }
    if (format[i] === quote) return i
  }
  return -1
}
