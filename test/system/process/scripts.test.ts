// Korean and Thai names on a welcome card from the built server (issue 27): a valid PNG
// whose name and initial are drawn, not boxes. The proof that no character is missing is
// the cmap test (test/unit/generation/text/script-coverage.test.ts); this one checks the drawn
// pixels as well: every missing glyph draws the same box, so two different names of the
// same length in a script no font has draw the same name area, and two in a covered
// script draw different ones.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { request, type ServerProcess, startServerProcess } from '../../support/processes.js'

const KEY = 'scripts-process-key-0123456789'
/** Where the greeting card draws the username (src/generation/templates/greeting.ts) and the avatar's initial, on 1024×450. */
const NAME_AREA = { left: 420, top: 200, width: 560, height: 80 }
const INITIAL_AREA = { left: 130, top: 125, width: 200, height: 200 }

describe('names in Korean and Thai on the built server\'s welcome card', () => {
  let server: ServerProcess
  let dataDir: string

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-scripts-'))
    server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: KEY, LOG_LEVEL: 'warn' })
  })
  after(async () => {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  /** The welcome card for `username`, checked to be a 1024×450 PNG, as raw RGBA. */
  async function card (username: string): Promise<{ data: Buffer, width: number }> {
    const res = await request(`${server.url}/gen/welcome`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/json' }, body: JSON.stringify({ username, members: 'Member #42' }) })
    assert.equal(res.status, 200, res.body.toString())
    assert.equal(res.headers['content-type'], 'image/png')
    assert.deepEqual([...res.body.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    const { data, info } = await sharp(res.body).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
    assert.deepEqual([info.width, info.height], [1024, 450])
    return { data, width: info.width }
  }

  function area (image: { data: Buffer, width: number }, box: typeof NAME_AREA): Buffer {
    const rows: Buffer[] = []
    for (let y = box.top; y < box.top + box.height; y++) {
      const start = (y * image.width + box.left) * 4
      rows.push(image.data.subarray(start, start + box.width * 4))
    }
    return Buffer.concat(rows)
  }

  it('draws the same boxes for two names in a script no font has (the comparison sees missing glyphs)', async () => {
    // Egyptian hieroglyphs: in none of the bundled fonts, nor on the hosts tests run on.
    const a = await card('\u{13000}\u{13001}\u{13002}')
    const b = await card('\u{13010}\u{13011}\u{13012}')
    assert.ok(area(a, NAME_AREA).equals(area(b, NAME_AREA)))
    assert.ok(area(a, INITIAL_AREA).equals(area(b, INITIAL_AREA)))
  })

  for (const [script, first, second] of [['Korean', '김민준', '박지훈'], ['Thai', 'สมชาย', 'ณัฐพล']]) {
    it(`draws ${script} names and initials as letters: ${first}, ${second}`, async () => {
      assert.equal([...first!].length, [...second!].length, 'as many characters, as many boxes if they were missing')
      const a = await card(first!)
      const b = await card(second!)
      assert.ok(!area(a, NAME_AREA).equals(area(b, NAME_AREA)), 'the two names draw the same pixels: boxes')
      assert.ok(!area(a, INITIAL_AREA).equals(area(b, INITIAL_AREA)), 'the two initials draw the same pixels: boxes')
    })
  }
})
