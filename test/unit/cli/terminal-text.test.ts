import assert from 'node:assert/strict'
import { test } from 'node:test'
import { printable, printableJson, PRINTABLE_MAX } from '../../../src/cli/terminal-text.js'

test('printable escapes every byte a terminal would act on', () => {
  const hostile = 'a\x1b[2J\x1b]0;title\x07b\rAdded 50 of 50\n\x9b31m\u202egnp.exe\x7f'
  const out = printable(hostile)
  assert.doesNotMatch(out, /[\x00-\x1f\x7f-\x9f\u202e]/)
  assert.equal(out, 'a\\x1b[2J\\x1b]0;title\\x07b\\rAdded 50 of 50\\n\\x9b31m\\u202egnp.exe\\x7f')
})

test('printable keeps ordinary text, other scripts and emoji as they are', () => {
  for (const text of ['hug/cat 1.gif', 'ぎゅっ.gif', 'https://example.test/a?b=c', '🐱‍👤 wave']) {
    assert.equal(printable(text), text)
  }
})

test('printable cuts a long string and says how much it left out', () => {
  const long = 'x'.repeat(100_000)
  const out = printable(long)
  assert.ok(out.length < PRINTABLE_MAX + 40)
  assert.ok(out.startsWith('x'.repeat(PRINTABLE_MAX)))
  assert.match(out, /… \(99700 more characters\)$/)
  assert.equal(printable('y'.repeat(10), 4), 'yyyy… (6 more characters)')
})

test('printableJson escapes what JSON.stringify leaves raw, and keeps the data whole', () => {
  const value = [{ file: `https://cdn.example.test/a\x1b[2J\x9b31m\u202egnp.exe\x7f${'z'.repeat(1000)}`, name: 'ぎゅっ 🐱' }]
  const out = printableJson(value)
  assert.doesNotMatch(out, /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/)
  assert.match(out, /a\\u001b\[2J\\u009b31m\\u202egnp\.exe\\u007f/)
  assert.deepEqual(JSON.parse(out), value)
})
