// The checked fields of the profile and now-playing cards: each value bounded, each bad
// one a 400 VALIDATION naming its field and saying what it takes.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { choiceField, dateField, durationField, MAX_DURATION_SECONDS, numberField, optionalNumber, textField } from '../../../../src/generation/templates/fields.js'

function refusal (fn: () => unknown, field: string, message: RegExp): void {
  assert.throws(fn, (err: any) => {
    assert.equal(err.code, 'VALIDATION')
    assert.equal(err.status, 400)
    assert.deepEqual(err.details, { field })
    assert.match(err.message, message)
    return true
  })
}

describe('choiceField', () => {
  it('takes a choice in any case, the fallback when absent or blank', () => {
    assert.equal(choiceField({ theme: 'LIGHT' }, 'theme', ['dark', 'light'], 'dark'), 'light')
    assert.equal(choiceField({}, 'theme', ['dark', 'light'], 'dark'), 'dark')
    assert.equal(choiceField({ theme: '  ' }, 'theme', ['dark', 'light'], 'dark'), 'dark')
  })
  it('refuses anything else, listing the choices', () => {
    refusal(() => choiceField({ status: 'busy' }, 'status', ['online', 'idle', 'dnd'], 'online'), 'status', /^Invalid "status": "busy"; use online, idle or dnd$/)
  })
})

describe('numberField', () => {
  it('reads whole numbers, thousands separated by commas, within bounds', () => {
    assert.equal(numberField({ xp: '12,000' }, 'xp', { min: 0, max: 1e6 }, 0), 12000)
    assert.equal(numberField({ xp: '0' }, 'xp', { min: 0, max: 1e6 }, 5), 0)
    assert.equal(numberField({}, 'xp', { min: 0, max: 1e6 }, 5), 5)
    assert.equal(numberField({ blur: '2.5' }, 'blur', { min: 0, max: 40, whole: false }, 0), 2.5)
  })
  it('refuses words, fractions where whole, out of bounds, misplaced commas, and says the range', () => {
    for (const value of ['twelve', '1.5', '-1', '41', '1,00', '1e3', 'Infinity', '0x10']) {
      refusal(() => numberField({ level: value }, 'level', { min: 0, max: 40 }, 0), 'level', /use a whole number from 0 to 40$/)
    }
  })
  it('leaves an optional number undefined when absent', () => {
    assert.equal(optionalNumber({}, 'level', { min: 0, max: 10 }), undefined)
    assert.equal(optionalNumber({ level: '7' }, 'level', { min: 0, max: 10 }), 7)
  })
})

describe('durationField', () => {
  it('reads seconds and clocks', () => {
    assert.equal(durationField({ t: '95' }, 't', 0), 95)
    assert.equal(durationField({ t: '95.9' }, 't', 0), 95)
    assert.equal(durationField({ t: '1:35' }, 't', 0), 95)
    assert.equal(durationField({ t: '61:00' }, 't', 0), 3660)
    assert.equal(durationField({ t: '1:02:03' }, 't', 0), 3723)
    assert.equal(durationField({}, 't', 7), 7)
    assert.equal(durationField({ t: String(MAX_DURATION_SECONDS) }, 't', 0), MAX_DURATION_SECONDS)
  })
  it('refuses seconds past 59, negative times, words and more than a day', () => {
    for (const value of ['1:60', '-5', 'soon', '1:2:3:4', String(MAX_DURATION_SECONDS + 1), '25:00:00']) {
      refusal(() => durationField({ elapsed: value }, 'elapsed', 0), 'elapsed', /use seconds \(95\) or minutes and seconds/)
    }
  })
})

describe('dateField', () => {
  it('reads ISO dates, Unix seconds and milliseconds, and Discord ids', () => {
    assert.equal(dateField({ d: '2021-03-14' }, 'd')?.toISOString(), '2021-03-14T00:00:00.000Z')
    assert.equal(dateField({ d: '2021-03-14T09:26:53Z' }, 'd')?.toISOString(), '2021-03-14T09:26:53.000Z')
    assert.equal(dateField({ d: '1700000000' }, 'd')?.toISOString(), '2023-11-14T22:13:20.000Z')
    assert.equal(dateField({ d: '1700000000000' }, 'd')?.toISOString(), '2023-11-14T22:13:20.000Z')
    // Discord's documented example id: 2016-04-30T11:18:25.796Z.
    assert.equal(dateField({ d: '175928847299117063' }, 'd')?.toISOString(), '2016-04-30T11:18:25.796Z')
    assert.equal(dateField({}, 'd'), undefined)
  })
  it('refuses words, impossible dates and dates before 1970', () => {
    for (const value of ['yesterday', '2021-13-45', '14/03/2021', '-1']) {
      refusal(() => dateField({ member_since: value }, 'member_since'), 'member_since', /use a date \(2021-03-14\), Unix time/)
    }
  })
})

describe('textField', () => {
  it('trims, with a fallback for absent or blank', () => {
    assert.equal(textField({ t: '  hi ' }, 't'), 'hi')
    assert.equal(textField({ t: ' ' }, 't', 'x'), 'x')
    assert.equal(textField({}, 't'), '')
  })
})
