// A custom emoji whose fetch failed (docs/generation.md, "Discord markup") is drawn as
// its :name:, and the failure is kept briefly: pictures naming the same dead emoji fetch
// it once, not once each, until the failure's time has passed (the clock injected).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { createAssetCatalog } from '../../../../src/generation/assets/asset-catalog.js'
import { createFontRegistry } from '../../../../src/generation/text/fonts.js'
import { collectJob } from '../../../../src/generation/pipeline/render-job.js'
import { parseAllowList } from '../../../../src/remote-fetch/address.js'
import { createRemoteFetcher } from '../../../../src/remote-fetch/fetcher.js'
import { createImageFetcher, FAILURE_TTL_MS } from '../../../../src/remote-fetch/image-fetcher.js'
import { createTestApp, tempDir, type TestApp } from '../../../support/helpers.js'

const DEAD = '404404404404404404'
let cdn: http.Server
let origin: string
const hits: string[] = []

before(async () => {
  cdn = http.createServer((req, res) => {
    hits.push(req.url ?? '')
    res.writeHead(404); res.end()
  })
  await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`
})
after(async () => {
  cdn.closeAllConnections()
  await new Promise((resolve) => cdn.close(resolve))
})

const fetchesOf = (id: string): number => hits.filter((h) => h === `/emojis/${id}.png`).length

describe('a dead custom emoji', () => {
  it('is fetched once for two pictures, and again once the clock has passed FAILURE_TTL_MS', async () => {
    const dataDir = tempDir('uma-emoji-failures-')
    try {
      const clock = { ms: 5_000_000 }
      const images = createImageFetcher({ fetcher: createRemoteFetcher({ allow: parseAllowList(['127.0.0.1']) }), now: () => clock.ms })
      const deps = { fonts: createFontRegistry(), assets: createAssetCatalog({ dataDir }), images, discordCdn: origin }
      const picture = async (): Promise<void> => {
        const job = await collectJob(deps, { format: 'png', template: 'welcome', fields: { username: `Ada <:gone:${DEAD}>` } })
        const drawn = await job.decode(10_000)
        assert.equal(drawn.images[`${origin}/emojis/${DEAD}.png`], undefined, 'no image: drawn as :gone:')
      }
      await picture()
      await picture()
      assert.equal(fetchesOf(DEAD), 1)
      clock.ms += FAILURE_TTL_MS
      await picture()
      assert.equal(fetchesOf(DEAD), 2)
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('over HTTP: two welcome cards naming it are both answered, the emoji asked of the CDN once', async () => {
    const id = '410410410410410410'
    const t: TestApp = await createTestApp({ config: { remoteFetchAllow: parseAllowList(['127.0.0.1']), discordCdnUrl: origin } })
    try {
      const cards = []
      for (let i = 0; i < 2; i++) {
        const res = await t.app.inject({ method: 'POST', url: '/gen/welcome', headers: t.auth, payload: { username: `Ada <:gone:${id}>`, output: 'png' } })
        assert.equal(res.statusCode, 200, res.body)
        cards.push(res.rawPayload)
      }
      assert.equal(fetchesOf(id), 1)
      assert.deepEqual(cards[1], cards[0], 'the same picture: the emoji drawn as :gone: both times')
    } finally {
      await t.close()
    }
  })
})
