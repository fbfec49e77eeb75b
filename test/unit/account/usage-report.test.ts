// The usage report behind /me, `keys usage` and the usage export: ranges, periods, CSV.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { csvField, monthRange, parseDay, rangeProblem, usageCsv, usageReport } from '../../../src/account/usage-report.js'
import type { Store } from '../../../src/store/interface.js'
import { openSqliteStore } from '../../../src/store/sqlite/index.js'
import { tempDir } from '../../support/helpers.js'

describe('usage report', () => {
  let dir: string
  let store: Store
  let alpha: number
  let beta: number
  before(async () => {
    dir = tempDir('uma-usage-')
    store = openSqliteStore(dir)
    alpha = (await store.keys.create({ name: 'alpha', prefix: 'um_aaaa', hash: 'a'.repeat(64), source: 'cli' })).id
    beta = (await store.keys.create({ name: 'Beta.revoked-2', prefix: 'um_bbbb', hash: 'b'.repeat(64), source: 'cli' })).id
    await store.usage.add([
      { keyId: alpha, day: '2026-10-31', group: 'colors', requests: 9, units: 9 },
      { keyId: alpha, day: '2026-11-01', group: 'colors', requests: 2, units: 2 },
      { keyId: alpha, day: '2026-11-02', group: 'colors', requests: 1, units: 1 },
      { keyId: alpha, day: '2026-11-02', group: 'conversion', requests: 4, units: 20 },
      { keyId: beta, day: '2026-11-30', group: 'colors', requests: 1, units: 1 },
      { keyId: beta, day: '2026-12-01', group: 'colors', requests: 7, units: 7 }
    ])
  })
  after(async () => { await store.close(); fs.rmSync(dir, { recursive: true, force: true }) })

  it('sums per key, endpoint group and day over an inclusive range', async () => {
    const report = await usageReport(store, { from: '2026-11-01', to: '2026-11-30', group: 'day' })
    assert.deepEqual(report, {
      from: '2026-11-01',
      to: '2026-11-30',
      group: 'day',
      rows: [
        { period: '2026-11-01', key_id: String(alpha), key_name: 'alpha', endpoint_group: 'colors', requests: 2, units: 2 },
        { period: '2026-11-02', key_id: String(alpha), key_name: 'alpha', endpoint_group: 'colors', requests: 1, units: 1 },
        { period: '2026-11-02', key_id: String(alpha), key_name: 'alpha', endpoint_group: 'conversion', requests: 4, units: 20 },
        { period: '2026-11-30', key_id: String(beta), key_name: 'Beta.revoked-2', endpoint_group: 'colors', requests: 1, units: 1 }
      ],
      totals: { requests: 8, units: 24 }
    })
  })

  it('sums per month, and for one key', async () => {
    const all = await usageReport(store, { from: '2026-10-01', to: '2026-12-31', group: 'month' })
    assert.deepEqual(all.rows.map((r) => [r.period, r.key_name, r.endpoint_group, r.requests, r.units]), [
      ['2026-10', 'alpha', 'colors', 9, 9],
      ['2026-11', 'Beta.revoked-2', 'colors', 1, 1],
      ['2026-11', 'alpha', 'colors', 3, 3],
      ['2026-11', 'alpha', 'conversion', 4, 20],
      ['2026-12', 'Beta.revoked-2', 'colors', 7, 7]
    ])
    assert.deepEqual(all.totals, { requests: 24, units: 40 })
    const one = await usageReport(store, { from: '2026-10-01', to: '2026-12-31', group: 'month', keyId: beta })
    assert.deepEqual(one.rows.map((r) => [r.period, r.units]), [['2026-11', 1], ['2026-12', 7]])
    assert.deepEqual(one.totals, { requests: 8, units: 8 })
  })

  it('writes pending counts first when given a flush', async () => {
    const report = await usageReport({
      ...store,
      flush: async () => { await store.usage.add([{ keyId: alpha, day: '2027-01-05', group: 'gifs', requests: 1, units: 1 }]) }
    }, { from: '2027-01-01', to: '2027-01-31', group: 'day' })
    assert.deepEqual(report.rows.map((r) => [r.period, r.endpoint_group]), [['2027-01-05', 'gifs']])
  })

  it('refuses a range that is not one', async () => {
    assert.equal(rangeProblem('2026-11-01', '2026-11-01'), undefined)
    assert.match(rangeProblem('2026-11-02', '2026-11-01')!, /after/)
    assert.match(rangeProblem('2026-02-30', '2026-03-01')!, /"from" must be a UTC day/)
    assert.match(rangeProblem('2000-01-01', '2026-01-01')!, /at most 3660 days/)
    await assert.rejects(usageReport(store, { from: 'yesterday', to: '2026-11-01', group: 'day' }), RangeError)
  })

  it('reads days and months', () => {
    assert.equal(parseDay('2028-02-29'), '2028-02-29')
    for (const bad of ['2026-02-29', '2026-13-01', '2026-1-01', ' 2026-01-01', '2026-01-01T00:00:00Z']) assert.equal(parseDay(bad), undefined, bad)
    assert.deepEqual(monthRange('2026-02'), { from: '2026-02-01', to: '2026-02-28' })
    assert.deepEqual(monthRange('2028-02'), { from: '2028-02-01', to: '2028-02-29' })
    assert.deepEqual(monthRange('2026-12'), { from: '2026-12-01', to: '2026-12-31' })
    for (const bad of ['2026-00', '2026-13', '2026-1', '26-01']) assert.equal(monthRange(bad), undefined, bad)
  })
})

describe('usage CSV', () => {
  it('names its columns and ends lines with CRLF (RFC 4180)', () => {
    const csv = usageCsv({ rows: [{ period: '2026-11', key_id: '3', key_name: 'shop.customer-1', endpoint_group: 'colors', requests: 2, units: 10 }] })
    assert.equal(csv, 'period,key_id,key_name,endpoint_group,requests,units\r\n2026-11,3,shop.customer-1,colors,2,10\r\n')
    assert.equal(usageCsv({ rows: [] }), 'period,key_id,key_name,endpoint_group,requests,units\r\n')
  })

  it('quotes fields with commas, quotes or line breaks, and defuses formulas', () => {
    assert.equal(csvField('a,b'), '"a,b"')
    assert.equal(csvField('say "hi"'), '"say ""hi"""')
    assert.equal(csvField('two\nlines'), '"two\nlines"')
    assert.equal(csvField('=HYPERLINK("x")'), '"\'=HYPERLINK(""x"")"')
    for (const start of ['+', '-', '@', '\t']) assert.equal(csvField(`${start}1`)[0] === "'" || csvField(`${start}1`).startsWith('"\''), true, start)
    assert.equal(csvField('plain-name_1.x'), 'plain-name_1.x')
    assert.equal(csvField(-3), '-3')
  })
})
