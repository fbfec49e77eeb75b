// The .NET date format of custom texts, against what .NET's invariant culture prints for
// a DateTime of kind Utc (the values of Microsoft's "Standard date and time format
// strings" and "Custom date and time format strings" pages, for their example instant
// 2009-06-15T13:45:30, a Monday, read in UTC).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { DateFormatError, formatDotNetDate } from '../../../../src/generation/custom/date-format.js'
import { createTestApp, json } from '../../../support/helpers.js'

const MONDAY = new Date(Date.UTC(2009, 5, 15, 13, 45, 30))
const WITH_MS = new Date(Date.UTC(2009, 5, 15, 13, 45, 30, 617))
const MORNING = new Date(Date.UTC(2008, 0, 1, 6, 9, 1, 50)) // a Tuesday, 1 January
const TUESDAY_14TH = new Date(Date.UTC(2026, 3, 14, 9, 0, 0))

const CASES: Array<[Date, string, string]> = [
  // Standard formats (one character).
  [MONDAY, 'd', '06/15/2009'],
  [MONDAY, 'D', 'Monday, 15 June 2009'],
  [MONDAY, 'f', 'Monday, 15 June 2009 13:45'],
  [MONDAY, 'F', 'Monday, 15 June 2009 13:45:30'],
  [MONDAY, 'g', '06/15/2009 13:45'],
  [MONDAY, 'G', '06/15/2009 13:45:30'],
  [MONDAY, 'M', 'June 15'],
  [MONDAY, 'm', 'June 15'],
  [MONDAY, 'O', '2009-06-15T13:45:30.0000000Z'],
  [WITH_MS, 'o', '2009-06-15T13:45:30.6170000Z'],
  [MONDAY, 'R', 'Mon, 15 Jun 2009 13:45:30 GMT'],
  [MONDAY, 'r', 'Mon, 15 Jun 2009 13:45:30 GMT'],
  [MONDAY, 's', '2009-06-15T13:45:30'],
  [MONDAY, 't', '13:45'],
  [MONDAY, 'T', '13:45:30'],
  [MONDAY, 'u', '2009-06-15 13:45:30Z'],
  [MONDAY, 'U', 'Monday, 15 June 2009 13:45:30'],
  [MONDAY, 'Y', '2009 June'],
  [MONDAY, 'y', '2009 June'],
  // Day names: "dddd"/"ddd" once printed the day of the month twice ("1414").
  [TUESDAY_14TH, 'dddd', 'Tuesday'],
  [TUESDAY_14TH, 'ddd', 'Tue'],
  [TUESDAY_14TH, 'dddd, MMMM d', 'Tuesday, April 14'],
  [TUESDAY_14TH, 'ddd dd MMM yyyy', 'Tue 14 Apr 2026'],
  // Custom specifiers.
  [MORNING, '%d', '1'],
  [MORNING, 'dd', '01'],
  [MORNING, '%M', '1'],
  [MORNING, 'MM/dd/yy', '01/01/08'],
  [MORNING, '%y', '8'],
  [MORNING, 'yyy', '2008'],
  [MORNING, 'yyyyy', '02008'],
  [MORNING, '%h', '6'],
  [MORNING, 'hh:mm:ss tt', '06:09:01 AM'],
  [MORNING, 'h:m:s %t', '6:9:1 A'],
  [MORNING, 'H:mm', '6:09'],
  [WITH_MS, 'hh:mm:ss tt', '01:45:30 PM'],
  [WITH_MS, 'h:mm:ss.ff t', '1:45:30.61 P'],
  [WITH_MS, 'HH:mm:ss.fff', '13:45:30.617'],
  [WITH_MS, 'HH:mm:ss.ffff', '13:45:30.6170'],
  [WITH_MS, 'HH:mm:ss.FFFF', '13:45:30.617'],
  [MONDAY, 'HH:mm:ss.FFF', '13:45:30'],
  [MORNING, 'ss.FFF', '01.05'],
  [MONDAY, 'yyyy-MM-ddTHH:mm:sszzz', '2009-06-15T13:45:30+00:00'],
  [MONDAY, 'HH zz', '13 +00'],
  [MONDAY, 'HH %z', '13 +0'],
  [MONDAY, 'yyyy-MM-ddTHH:mm:ssK', '2009-06-15T13:45:30Z'],
  [MONDAY, 'yyyy gg', '2009 A.D.'],
  // Literals: quotes, backslash escapes, characters that are no specifier.
  [MONDAY, "'Day' d 'of' MMMM", 'Day 15 of June'],
  [MONDAY, '"at" HH:mm', 'at 13:45'],
  [MONDAY, '\\h\\h hh', 'hh 01'],
  [MONDAY, "'it''s' HH", 'its 13'],
  [MONDAY, 'yyyy-MM-dd HH:mm', '2009-06-15 13:45'],
  [MONDAY, 'dd.MM.yyyy', '15.06.2009'],
  [MONDAY, 'HH:mm !', '13:45 !']
]

describe('.NET date formats (invariant culture, UTC)', () => {
  for (const [date, format, expected] of CASES) {
    it(`${JSON.stringify(format)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(formatDotNetDate(date, format), expected)
    })
  }

  it('refuses what .NET refuses: an unknown standard format, an open quote, a lone %, eight f', () => {
    for (const format of ['q', 'x', "HH 'open", '%', 'ss.ffffffff', 'HH\\']) {
      assert.throws(() => formatDotNetDate(MONDAY, format), DateFormatError, format)
    }
  })

  it('answers 400 naming texts[i].format for a format .NET would refuse', async () => {
    const t = await createTestApp()
    try {
      const res = await t.app.inject({ method: 'POST', url: '/gen/custom', headers: t.auth, payload: { texts: [{ unix: 1_000_000_000, format: 'q' }] } })
      assert.equal(res.statusCode, 400, res.body)
      const body = json(res)
      assert.equal(body.error, 'VALIDATION')
      assert.match(body.message, /texts\[0\]\.format/)
    } finally {
      await t.close()
    }
  })
})
