// The journal of gifs pull (src/gifs/pull-journal.ts): appended one line per URL, read
// back by the next run, a torn last line cut off, a journal of the earlier format
// carried over. The kill itself is test/system/process/gif-pull-kill.test.ts.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { JOURNAL_FILE, openPullJournal, RUN_FILE } from '../../../src/gifs/pull-journal.js'
import { tempDir } from '../../support/helpers.js'

const RUN = { source: 'nekos.best', category: 'hug' }
const H1 = 'a'.repeat(64)
const H2 = 'b'.repeat(64)

let dir: string
beforeEach(() => { dir = tempDir('uma-pull-journal-') })
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

const journalText = (): string => fs.readFileSync(path.join(dir, JOURNAL_FILE), 'utf8')

/** What the next run would read. */
async function reread (run = RUN): Promise<{ added: readonly string[], tried: string[] }> {
  const j = await openPullJournal(dir, run)
  await j.close()
  return { added: j.added, tried: [...j.tried] }
}

describe('gifs pull journal', () => {
  it('appends one line per URL and gives them back to the next run', async () => {
    const first = await openPullJournal(dir, RUN)
    assert.deepEqual([first.added, [...first.tried]], [[], []])
    await first.append({ url: 'https://g.example/1.gif', added: H1 })
    const afterOne = journalText()
    await first.append({ url: 'https://g.example/2.gif' })
    await first.append({ url: 'https://g.example/3.gif', added: H2 })
    await first.close()
    const text = journalText()
    assert.ok(text.startsWith(afterOne), 'appended, not rewritten')
    assert.deepEqual(text.split('\n'), [
      `{"url":"https://g.example/1.gif","added":"${H1}"}`,
      '{"url":"https://g.example/2.gif"}',
      `{"url":"https://g.example/3.gif","added":"${H2}"}`,
      ''
    ])

    const second = await openPullJournal(dir, RUN)
    await second.close()
    assert.deepEqual(second.added, [H1, H2])
    assert.equal(second.isAdded(H2), true)
    assert.deepEqual([...second.tried], ['https://g.example/1.gif', 'https://g.example/2.gif', 'https://g.example/3.gif'])
  })

  it('counts a hash journaled twice once (a kill between the journal line and the unstaging)', async () => {
    const j = await openPullJournal(dir, RUN)
    await j.append({ url: 'https://g.example/1.gif', added: H1 })
    await j.append({ url: 'https://g.example/1.gif', added: H1 })
    await j.close()
    assert.deepEqual((await reread()).added, [H1])
  })

  it('cuts off a torn last line, so the next appended line stands on its own', async () => {
    const j = await openPullJournal(dir, RUN)
    await j.append({ url: 'https://g.example/1.gif', added: H1 })
    await j.close()
    const whole = journalText()
    fs.appendFileSync(path.join(dir, JOURNAL_FILE), `{"url":"https://g.example/2.gif","added":"${H2.slice(0, 20)}`)

    const next = await openPullJournal(dir, RUN)
    assert.deepEqual(next.added, [H1])
    assert.deepEqual([...next.tried], ['https://g.example/1.gif'])
    assert.equal(journalText(), whole)
    await next.append({ url: 'https://g.example/2.gif', added: H2 })
    await next.close()
    assert.deepEqual(await reread(), { added: [H1, H2], tried: ['https://g.example/1.gif', 'https://g.example/2.gif'] })
  })

  it('carries over the journal of the earlier format (run.json holding every hash and URL)', async () => {
    fs.writeFileSync(path.join(dir, RUN_FILE), JSON.stringify({ ...RUN, count: 30, added: [H1], tried: ['https://g.example/1.gif', 'https://g.example/2.gif'] }))
    assert.deepEqual(await reread(), { added: [H1], tried: ['https://g.example/1.gif', 'https://g.example/2.gif'] })
    assert.deepEqual(await reread(), { added: [H1], tried: ['https://g.example/1.gif', 'https://g.example/2.gif'] }, 'and keeps it')
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dir, RUN_FILE), 'utf8')), { ...RUN, format: 2 })
  })

  it('starts anew over the journal of another source or category', async () => {
    const j = await openPullJournal(dir, RUN)
    await j.append({ url: 'https://g.example/1.gif', added: H1 })
    await j.close()
    assert.deepEqual(await reread({ ...RUN, category: 'pat' }), { added: [], tried: [] })
    assert.equal(journalText(), '')
  })
})
