// The image settings are read and checked at boot, with messages naming the variable.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ConfigError, loadConfig } from '../../src/config.js'

describe('image conversion settings', () => {
  it('has documented defaults', () => {
    const { image } = loadConfig({})
    assert.equal(image.maxPixels, 50_000_000)
    assert.equal(image.maxFrames, 1000)
    assert.equal(image.timeoutMs, 15_000)
    assert.equal(image.queue, 8)
    assert.ok(image.concurrency >= 1)
  })

  it('reads each variable', () => {
    const { image } = loadConfig({ IMAGE_MAX_PIXELS: '16000000', IMAGE_MAX_FRAMES: '200', IMAGE_TIMEOUT_MS: '5000', IMAGE_CONCURRENCY: '3', IMAGE_QUEUE: '0' })
    assert.deepEqual(image, { maxPixels: 16_000_000, maxFrames: 200, timeoutMs: 5000, concurrency: 3, queue: 0 })
  })

  it('refuses bad values with a message naming the variable', () => {
    for (const [name, value] of [['IMAGE_MAX_PIXELS', '0'], ['IMAGE_MAX_FRAMES', 'many'], ['IMAGE_TIMEOUT_MS', '10'], ['IMAGE_CONCURRENCY', '0'], ['IMAGE_QUEUE', '-1']]) {
      assert.throws(() => loadConfig({ [name!]: value }), (err: unknown) => err instanceof ConfigError && err.variable === name && err.message.includes(name!))
    }
  })
})
