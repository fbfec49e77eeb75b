// Upload bodies reuse their buffers (src/conversion/image/body-buffers.ts): a body sees
// exactly its bytes, a buffer is reused only once given back, the waiting buffers are
// bounded and let go when the server is quiet, and over real sockets every answer is its
// own upload's, with many uploads sharing buffers at once.
import assert from 'node:assert/strict'
import http from 'node:http'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { createBodyBuffers, IDLE_MS, MAX_POOLED_BUFFER_BYTES } from '../../../../src/conversion/image/body-buffers.js'
import { createTestApp, type TestApp } from '../../../support/helpers.js'
import { sourcePixels } from '../../../fixtures/images.js'

describe('body buffers', () => {
  it('gives a view of exactly the length asked, on a buffer of its size class', () => {
    const buffers = createBodyBuffers()
    for (const length of [0, 1, 1000, 65_536, 65_537, 300_000, 1_048_576, 1_048_577, MAX_POOLED_BUFFER_BYTES]) {
      const { bytes } = buffers.take(length)
      assert.equal(bytes.length, length)
      const capacity = buffers.capacityFor(length)
      assert.equal(bytes.buffer.byteLength, capacity)
      assert.ok(capacity >= length)
      // Four classes per doubling: at most a quarter of a buffer is unused above 64 KB.
      if (length > 65_536) assert.ok(capacity <= length * 1.25, `${length} → ${capacity}`)
    }
    assert.equal(buffers.capacityFor(MAX_POOLED_BUFFER_BYTES + 1), MAX_POOLED_BUFFER_BYTES + 1)
  })

  it('reuses a buffer only after it is given back, and once', () => {
    const buffers = createBodyBuffers()
    const first = buffers.take(300_000)
    const second = buffers.take(300_000)
    assert.notEqual(first.bytes.buffer, second.bytes.buffer, 'two bodies at once never share a buffer')
    first.recycle()
    first.recycle()
    assert.equal(buffers.pooledBytes, buffers.capacityFor(300_000))
    const third = buffers.take(290_000)
    assert.equal(third.bytes.buffer, first.bytes.buffer, 'same size class: reused')
    assert.equal(third.bytes.length, 290_000)
    assert.equal(buffers.pooledBytes, 0)
    const fourth = buffers.take(300_000)
    assert.notEqual(fourth.bytes.buffer, first.bytes.buffer, 'recycled twice, handed out once')
  })

  it('does not pool bodies above the largest class, nor more than its bound', () => {
    const buffers = createBodyBuffers({ maxPooledBytes: 1024 * 1024 })
    const large = buffers.take(MAX_POOLED_BUFFER_BYTES + 1)
    large.recycle()
    assert.equal(buffers.pooledBytes, 0)
    const taken = Array.from({ length: 5 }, () => buffers.take(300_000))
    for (const t of taken) t.recycle()
    const capacity = buffers.capacityFor(300_000)
    assert.equal(buffers.pooledBytes, Math.floor((1024 * 1024) / capacity) * capacity)
  })

  it('lets every waiting buffer go after a quiet period, not while bodies keep coming', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] })
    const buffers = createBodyBuffers()
    buffers.take(100_000).recycle()
    assert.ok(buffers.pooledBytes > 0)
    t.mock.timers.tick(IDLE_MS / 2)
    const busy = buffers.take(500_000)
    t.mock.timers.tick(IDLE_MS / 2)
    assert.ok(buffers.pooledBytes > 0, 'a body was taken during the period: kept')
    busy.recycle()
    t.mock.timers.tick(IDLE_MS)
    assert.equal(buffers.pooledBytes, 0, 'a whole period without a body: let go')
  })
})

describe('uploads sharing buffers, over sockets', () => {
  let t: TestApp
  let base: string
  before(async () => {
    t = await createTestApp()
    base = await t.app.listen({ port: 0, host: '127.0.0.1' })
  })
  after(async () => { await t.close() })

  function post (body: Buffer, path = '/convert/image-png', declared = true): Promise<{ status: number, width: number, body: Buffer }> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { ...t.auth, 'content-type': 'application/octet-stream' }
      if (declared) headers['content-length'] = body.length
      const req = http.request(`${base}${path}`, { method: 'POST', headers })
      req.on('response', (res) => {
        const chunks: Buffer[] = []
        res.on('data', (d: Buffer) => chunks.push(d))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, width: Number(res.headers['x-image-width']), body: Buffer.concat(chunks) }))
      })
      req.on('error', reject)
      req.end(body)
    })
  }

  /** A distinct picture per width (its pixels differ too), as PNG or JPEG. */
  async function picture (width: number, format: 'png' | 'jpeg'): Promise<Buffer> {
    const img = sharp(sourcePixels(width, 40), { raw: { width, height: 40, channels: 3 } })
    return format === 'png' ? img.png().toBuffer() : img.jpeg({ quality: 90 }).toBuffer()
  }

  it('answers each upload with its own picture, one after another and many at once', async () => {
    // Bodies of one size class share buffers: a smaller body after a larger one, then a
    // burst of distinct pictures in flight together, raw and chunked.
    const widths = Array.from({ length: 16 }, (_, i) => 40 + i * 3)
    const bodies = await Promise.all(widths.map((w, i) => picture(w, i % 2 === 0 ? 'png' : 'jpeg')))
    for (const [i, body] of bodies.entries()) {
      const answer = await post(body)
      assert.equal(answer.status, 200)
      assert.equal(answer.width, widths[i])
    }
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(bodies.map((body, i) => post(body, '/convert/image-png', i % 3 !== 0)))
      for (const [i, answer] of answers.entries()) {
        assert.equal(answer.status, 200, answer.body.toString())
        const meta = await sharp(answer.body).metadata()
        assert.equal(meta.width, widths[i])
        const expected = await sharp(bodies[i]).removeAlpha().raw().toBuffer()
        const got = await sharp(answer.body).removeAlpha().raw().toBuffer()
        assert.ok(expected.equals(got), `upload ${i} answered with its own pixels`)
      }
    }
  })
})
