// Corrupt GIFs and `gifs import`, run as operators run it (the built CLI as a process):
// a starter gif with 200 bytes overwritten by 0xFF at 12 places. With omggif two of the
// variants made the import hang forever and five were accepted and then served; every
// variant is now refused with a reason, or accepted only if libvips decodes every frame.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import sharp from 'sharp'
import { GIF_CHECK_TIMEOUT_SECONDS } from '../../../src/gifs/gif-info.js'
import { renderStarterGif } from '../../../src/gifs/starter-art.js'
import { tempDir } from '../../support/helpers.js'

const dirs: string[] = []
after(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }) })

const VARIANTS = 12
const DAMAGE = 200

describe('gifs import of corrupt GIFs', () => {
  it('refuses each of 12 damaged starter gifs with a reason (or accepts it only if every frame decodes), and never hangs', async () => {
    const good = renderStarterGif('hug', 0)
    const src = tempDir('uma-corrupt-src-')
    const dataDir = tempDir('uma-corrupt-data-')
    dirs.push(src, dataDir)
    fs.mkdirSync(path.join(src, 'hug'))
    fs.writeFileSync(path.join(src, 'hug', 'intact.gif'), good)
    const variants = new Map<string, Buffer>()
    for (let i = 0; i < VARIANTS; i++) {
      const offset = Math.floor(i * (good.length - DAMAGE) / (VARIANTS - 1))
      const bytes = Buffer.from(good)
      bytes.fill(0xff, offset, offset + DAMAGE)
      const name = `damaged-at-${offset}.gif`
      variants.set(name, bytes)
      fs.writeFileSync(path.join(src, 'hug', name), bytes)
    }

    // The bound is the documented per-file limit, not a speed claim: a hang is a failure.
    const r = spawnSync(process.execPath, ['dist/cli/index.js', 'gifs', 'import', src, '--create-store'], {
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: (VARIANTS + 1) * GIF_CHECK_TIMEOUT_SECONDS * 1000 + 30_000
    })
    assert.equal(r.signal, null, `the import was killed after its time bound: ${r.stderr}`)
    const rejected = new Map(r.stderr.split('\n').map((l) => /^rejected .*[/\\](\S+\.gif): (.+)$/.exec(l)).filter((m) => m !== null).map((m) => [m[1]!, m[2]!]))
    assert.ok(!rejected.has('intact.gif'), r.stderr)
    for (const [name, bytes] of variants) {
      const why = rejected.get(name)
      if (why !== undefined) {
        assert.match(why, /^(corrupt GIF|not a GIF): \S/, name)
        continue
      }
      // Accepted: then every frame must decode.
      await assert.doesNotReject(sharp(bytes, { animated: true, failOn: 'error' }).raw().toBuffer(), `${name} was accepted but does not decode`)
    }
    const added = Number(/Added (\d+)/.exec(r.stdout)?.[1])
    assert.equal(added, VARIANTS + 1 - rejected.size, r.stdout)
    assert.equal(r.status, rejected.size > 0 ? 1 : 0)
  })
})
