// The image settings are read and checked at boot, with messages naming the variable.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ConfigError, loadConfig, retiredSettingsIn } from '../../../src/config.js'

describe('image conversion settings', () => {
  it('has documented defaults', () => {
    const { image } = loadConfig({})
    assert.equal(image.maxPixels, 50_000_000)
    assert.equal(image.maxFrames, 1000)
    assert.equal(image.timeoutMs, 15_000)
    assert.equal(image.uploadMemoryBytes, 64 * 1024 * 1024)
    assert.equal(image.memoryBytes, 192 * 1024 * 1024)
    assert.ok(image.concurrency >= 1)
  })

  it('reads each variable', () => {
    const { image } = loadConfig({ IMAGE_MAX_PIXELS: '16000000', IMAGE_MAX_FRAMES: '200', IMAGE_TIMEOUT_MS: '5000', IMAGE_CONCURRENCY: '3', IMAGE_MEMORY: '1gb', IMAGE_UPLOAD_MEMORY: '100mb' })
    assert.deepEqual(image, {
      maxPixels: 16_000_000,
      maxFrames: 200,
      timeoutMs: 5000,
      concurrency: 3,
      memoryBytes: 1024 ** 3,
      uploadMemoryBytes: 100 * 1024 * 1024,
      uploadTimeoutMs: 20_000,
      uploadMinBytesPerSecond: 16 * 1024,
      uploadGraceMs: 5000
    })
    const upload = loadConfig({ IMAGE_UPLOAD_TIMEOUT_MS: '9000', IMAGE_UPLOAD_MIN_RATE: '64kb', IMAGE_UPLOAD_GRACE_MS: '2000' }).image
    assert.deepEqual([upload.uploadTimeoutMs, upload.uploadMinBytesPerSecond, upload.uploadGraceMs], [9000, 65_536, 2000])
  })

  it('starts with the retired slot counts set, and names each as no longer applying', () => {
    const env = { IMAGE_QUEUE: '8', IMAGE_MAX_PER_KEY: '2' }
    assert.doesNotThrow(() => loadConfig(env))
    const said = retiredSettingsIn(env)
    assert.equal(said.length, 2)
    assert.match(said[0]!, /^IMAGE_QUEUE is set but no longer applies: .*time queued/)
    assert.match(said[1]!, /^IMAGE_MAX_PER_KEY is set but no longer applies: .*fair order/)
    assert.deepEqual(retiredSettingsIn({}), [])
  })

  it('refuses bad values with a message naming the variable', () => {
    for (const [name, value] of [['IMAGE_MAX_PIXELS', '0'], ['IMAGE_MAX_FRAMES', 'many'], ['IMAGE_TIMEOUT_MS', '10'], ['IMAGE_CONCURRENCY', '0'], ['IMAGE_UPLOAD_MEMORY', '1mb'],
      ['IMAGE_MEMORY', '1mb'], ['IMAGE_MEMORY', 'lots'], ['IMAGE_UPLOAD_TIMEOUT_MS', 'soon'], ['IMAGE_UPLOAD_MIN_RATE', 'fast'], ['IMAGE_UPLOAD_GRACE_MS', '-1']]) {
      assert.throws(() => loadConfig({ [name!]: value }), (err: unknown) => err instanceof ConfigError && err.variable === name && err.message.includes(name!))
    }
  })
})
