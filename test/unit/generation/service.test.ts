// The generation service (src/generation/service.ts) answers from plain values, without a
// request or a reply: what the routes (routes.ts) put on the wire. And the two phases of
// a picture (src/generation/drawable.ts) are typed apart: what the event loop prepares
// with its images' sizes has the canvas size, and cannot be drawn.
import assert from 'node:assert/strict'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { createCanvas } from '@napi-rs/canvas'
import { isAppError } from '../../../src/errors.js'
import { createAssetCatalog } from '../../../src/generation/assets/asset-catalog.js'
import type { ImageSource } from '../../../src/generation/assets/image-source.js'
import { drawn, type Sized } from '../../../src/generation/drawable.js'
import { createPictureCache } from '../../../src/generation/pipeline/picture-cache.js'
import { type Caller, createFetchedImagesBudget, createGenerationService, createPreviewCache, GENERATION_PRIORS, type GenerationService, type Picture } from '../../../src/generation/service.js'
import { templateByName } from '../../../src/generation/template-registry.js'
import { createFontRegistry } from '../../../src/generation/text/fonts.js'
import { createRemoteFetcher } from '../../../src/remote-fetch/fetcher.js'
import { createImageFetcher } from '../../../src/remote-fetch/image-fetcher.js'
import { createResultCache } from '../../../src/result-cache/result-cache.js'
import { createWork, type Work } from '../../../src/work/work.js'
import { tempDirs } from '../../support/helpers.js'

const PNG = [0x89, 0x50, 0x4e, 0x47]
const JPEG = [0xff, 0xd8, 0xff]
const caller = (): Caller => ({ owner: undefined, signal: new AbortController().signal, elapsedMs: () => 0 })
/** The picture drawn (the result cache is off here: every picture is drawn, never not-modified). */
function drawnPicture (picture: Picture): { bytes: Uint8Array, reduced: string[] } {
  assert.equal(picture.kind, 'picture')
  if (picture.kind !== 'picture') throw new Error('not modified')
  assert.equal(picture.cache, 'miss')
  return picture.encoded
}

const dirs = tempDirs()
let work: Work
let service: GenerationService
before(() => {
  const dataDir = dirs.make('uma-gen-service-')
  work = createWork({
    threads: 1,
    timeoutMs: 0,
    dataDir,
    libvips: { lanes: 1, memoryBytes: 64 * 1024 * 1024 },
    priors: { threads: GENERATION_PRIORS.threads, libvips: GENERATION_PRIORS.libvips }
  })
  const assets = createAssetCatalog({ dataDir })
  service = createGenerationService({
    work,
    fonts: createFontRegistry({ operatorDir: path.join(dataDir, 'fonts') }),
    assets,
    images: createImageFetcher({ fetcher: createRemoteFetcher() }),
    fetchedBytes: createFetchedImagesBudget({ limitBytes: 64 * 1024 * 1024, fetchTimeoutMs: 5000, work }),
    previews: createPreviewCache(assets),
    pictures: createPictureCache({ cache: createResultCache({ dataDir, maxBytes: 0, diskTimeoutMs: 1000 }), codeVersion: '', dataDir, assets }),
    discordCdn: 'http://127.0.0.1:9',
    requestTimeoutMs: 30_000
  })
})
after(async () => {
  await work.close()
  dirs.removeAll()
})

describe('the generation service', () => {
  it('draws a template from its fields, in the format they ask for', async () => {
    const picture = await service.template('welcome', { username: 'Ada', output: 'jpg' }, caller())
    assert.equal(picture.format, 'jpg')
    const { bytes, reduced } = drawnPicture(picture)
    assert.deepEqual([...bytes.subarray(0, 3)], JPEG)
    assert.deepEqual(reduced, [])
  })

  it('draws /gen/custom from its body, jpg by default', async () => {
    const picture = await service.custom({ base: { width: 64, height: 32, color: 'teal' } }, caller())
    assert.equal(picture.format, 'jpg')
    assert.deepEqual([...drawnPicture(picture).bytes.subarray(0, 3)], JPEG)
  })

  it('refuses an unknown template by name, listing the valid ones', async () => {
    await assert.rejects(service.template('farewell', {}, caller()), (err) => {
      assert.ok(isAppError(err))
      assert.equal(err.code, 'TEMPLATE_NOT_FOUND')
      assert.deepEqual(err.details, { valid: ['welcome', 'goodbye', 'rank', 'quote', 'leaderboard', 'profile', 'nowplaying'] })
      return true
    })
  })

  it('lists the templates, banners, icons and fonts', () => {
    assert.deepEqual(service.list('templates'), ['welcome', 'goodbye', 'rank', 'quote', 'leaderboard', 'profile', 'nowplaying'])
    assert.ok(service.list('banners').includes('space'))
    assert.ok(service.list('icons').includes('neko'))
    assert.ok(service.list('fonts').length > 0)
  })

  it('previews an icon once and keeps it; an unknown name is ASSET_NOT_FOUND', async () => {
    const first = await service.preview('icon', 'star', caller())
    assert.deepEqual([...first.subarray(0, 4)], PNG)
    assert.equal(await service.preview('icon', 'STAR', caller()), first, 'the kept preview, not drawn again')
    await assert.rejects(service.preview('icon', 'no-such-icon', caller()), (err) => isAppError(err) && err.code === 'ASSET_NOT_FOUND')
  })
})

describe('the two phases of a picture', () => {
  it('prepares on sizes alone, as the event loop does: the canvas size, no pixels', async () => {
    const sizes: ImageSource<Sized> = {
      url: async () => ({ width: 128, height: 128 }),
      assetOrUrl: async () => ({ width: 88, height: 88 }),
      image: async () => ({ width: 64, height: 64 }),
      emoji: async () => undefined
    }
    const prepared = await templateByName('rank')!.prepare({ fonts: createFontRegistry(), images: sizes }, { username: 'Ada', avatar: 'https://example.com/a.png' })
    assert.deepEqual({ width: prepared.width, height: prepared.height }, { width: 934, height: 282 })
    // Never run: the type-check of npm test fails here if a picture prepared with sizes
    // could be drawn (only the thread that draws has Pixels).
    const drawOnTheEventLoop = (): unknown =>
      // @ts-expect-error: there is no Pixels<Sized>
      prepared(createCanvas, drawn)
    void drawOnTheEventLoop
  })
})
