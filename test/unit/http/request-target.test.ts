// The pieces that read raw UTF-8 in a URL (src/http/request-target.ts) and name what is
// wrong with a URL the server refuses (src/http/error-handler.ts). Over a socket to the
// built server: test/system/process/raw-utf8-url.test.ts.
import assert from 'node:assert/strict'
import { isUtf8 } from 'node:buffer'
import { describe, it } from 'node:test'
import { describeBadPath } from '../../../src/http/error-handler.js'
import { encodeRequestLine, invalidUtf8At } from '../../../src/http/request-target.js'

describe('invalidUtf8At', () => {
  it('accepts what Node accepts as UTF-8, and refuses the rest at the first bad byte', () => {
    const cases: Array<[number[], number]> = [
      [[0x61, 0xc3, 0xa9], -1], // é
      [[0xe2, 0x80, 0x99], -1], // ’
      [[0xf0, 0x9f, 0x8e, 0x89], -1], // 🎉
      [[0xef, 0xbf, 0xbd], -1], // U+FFFD itself
      [[0x61, 0xff], 1],
      [[0xc3], 0], // cut short
      [[0xc3, 0x28], 0],
      [[0xc0, 0xaf], 0], // overlong "/"
      [[0xe0, 0x80, 0xaf], 0], // overlong
      [[0xed, 0xa0, 0x80], 0], // a surrogate
      [[0xf4, 0x90, 0x80, 0x80], 0], // past U+10FFFF
      [[0x61, 0x62, 0x80], 2] // a continuation byte alone
    ]
    for (const [bytes, at] of cases) {
      assert.equal(invalidUtf8At(Uint8Array.from(bytes)), at, bytes.map((b) => b.toString(16)).join(' '))
    }
  })

  it('agrees with buffer.isUtf8 on 20,000 random byte strings', () => {
    let seed = 7
    const next = (): number => { seed = (seed * 1103515245 + 12345) >>> 0; return seed >>> 16 }
    for (let n = 0; n < 20_000; n++) {
      // Mostly bytes above 0x7F, so that many strings are valid multi-byte text.
      const bytes = Uint8Array.from({ length: next() % 8 }, () => (next() % 4 === 0 ? next() & 0x7f : 0x80 | (next() & 0x7f)))
      assert.equal(invalidUtf8At(bytes) === -1, isUtf8(bytes), Buffer.from(bytes).toString('hex'))
    }
  })
})

describe('encodeRequestLine', () => {
  it('percent-encodes the bytes above 0x7F of the target only', () => {
    const line = Buffer.from('GET /sfw/é?name=À+l’Orange&x=%41 HTTP/1.1\r\n', 'utf8')
    const encoded = encodeRequestLine(line)
    assert.ok('line' in encoded)
    assert.equal(encoded.line.toString('latin1'), 'GET /sfw/%C3%A9?name=%C3%80+l%E2%80%99Orange&x=%41 HTTP/1.1\r\n')
  })

  it('refuses a target that is not UTF-8, naming the byte, and a line without a target', () => {
    const bad = encodeRequestLine(Buffer.from('GET /a?b=\xe9t\xe9 HTTP/1.1\r\n', 'latin1'))
    assert.ok('refused' in bad)
    assert.match(bad.refused, /^The request URL is not UTF-8 text: byte 6 of it, 0xE9,/)
    const noTarget = encodeRequestLine(Buffer.from('GET /\xc3\xa9\r\n', 'latin1'))
    assert.ok('refused' in noTarget)
    assert.match(noTarget.refused, /method, a URL and the HTTP version/)
  })
})

describe('describeBadPath', () => {
  it('tells a stray "%" from escapes that are not UTF-8, and echoes neither', () => {
    assert.match(describeBadPath('/color/%zz-token?q=1'), /^The request path has a "%" not followed by two hex digits \(byte 8 of the path\)/)
    assert.match(describeBadPath('/x/100%'), /byte 7 of the path/)
    assert.match(describeBadPath('/color/%FF?q=%zz'), /^The request path has percent-escapes whose bytes are not UTF-8 text/)
    assert.doesNotMatch(describeBadPath('/color/%zz-token'), /token|%zz/)
  })
})
