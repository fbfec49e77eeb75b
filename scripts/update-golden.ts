// Regenerates the golden images in test/system/golden/reference/ from the cases in
// test/system/golden/golden-cases.ts, through the same HTTP path the test uses.
// Run on purpose after a change meant to alter the pictures, look at them, commit them:
//   node --import tsx scripts/update-golden.ts [name ...]
import fs from 'node:fs'
import path from 'node:path'
import { ANIMATED_GOLDEN_CASES, ANIMATED_GOLDEN_DIR, compareImages, frameOf, GOLDEN_CASES, GOLDEN_DIR, startGoldenFixture, toReference } from '../test/system/golden/golden-cases.js'

const only = process.argv.slice(2)
const cases = GOLDEN_CASES.filter((c) => only.length === 0 || only.includes(c.name))
const animated = ANIMATED_GOLDEN_CASES.filter((c) => only.length === 0 || only.includes(c.name))
if (cases.length === 0 && animated.length === 0) {
  process.stderr.write(`No golden case named ${only.join(', ')}; cases: ${GOLDEN_CASES.map((c) => c.name).join(', ')}\n`)
  process.exit(1)
}
fs.mkdirSync(GOLDEN_DIR, { recursive: true })
const fixture = await startGoldenFixture()
try {
  for (const c of cases) {
    const png = await toReference(await fixture.render(c))
    const file = path.join(GOLDEN_DIR, `${c.name}.png`)
    const before = fs.existsSync(file) ? fs.readFileSync(file) : undefined
    let state = 'new'
    if (before) state = before.equals(png) ? 'unchanged' : (await compareImages(png, before)).ok ? 'changed within tolerance' : 'CHANGED'
    fs.writeFileSync(file, png)
    process.stdout.write(`${c.name}.png  ${(png.length / 1024).toFixed(1)} KB  ${state}\n`)
  }
  fs.mkdirSync(ANIMATED_GOLDEN_DIR, { recursive: true })
  for (const c of animated) {
    // One frame of the animation; its count and delays are the case's own.
    const png = await toReference(await frameOf(await fixture.render(c), c.frame))
    const file = path.join(ANIMATED_GOLDEN_DIR, `${c.name}.frame${c.frame}.png`)
    const before = fs.existsSync(file) ? fs.readFileSync(file) : undefined
    let state = 'new'
    if (before) state = before.equals(png) ? 'unchanged' : (await compareImages(png, before)).ok ? 'changed within tolerance' : 'CHANGED'
    fs.writeFileSync(file, png)
    process.stdout.write(`animated/${c.name}.frame${c.frame}.png  ${(png.length / 1024).toFixed(1)} KB  ${state}\n`)
  }
  if (only.length === 0) {
    const names = new Set(GOLDEN_CASES.map((c) => `${c.name}.png`))
    for (const stale of fs.readdirSync(GOLDEN_DIR).filter((f) => f.endsWith('.png') && !names.has(f))) {
      fs.rmSync(path.join(GOLDEN_DIR, stale))
      process.stdout.write(`${stale}  removed (no case)\n`)
    }
  }
} finally {
  await fixture.close()
}
