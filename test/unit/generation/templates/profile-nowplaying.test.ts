// The profile and now-playing cards as the event loop prepares them (sizes only): the
// canvas each asks for, the images each field names, and the checks that answer a 400
// before any work is queued.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { ImageSource } from '../../../../src/generation/assets/image-source.js'
import type { Sized } from '../../../../src/generation/drawable.js'
import { clock } from '../../../../src/generation/templates/nowplaying.js'
import { MAX_BADGES } from '../../../../src/generation/templates/profile.js'
import { templateByName, type TemplateFields } from '../../../../src/generation/template-registry.js'
import { createFontRegistry } from '../../../../src/generation/text/fonts.js'

/** Sizes for every image, and what was asked for, by role. */
function recorder (): { images: ImageSource<Sized>, asked: string[] } {
  const asked: string[] = []
  const images: ImageSource<Sized> = {
    url: async (url, role) => { asked.push(`${role}:${url}`); return { width: 128, height: 128 } },
    assetOrUrl: async (kind, value, role) => { asked.push(`${role}:${kind}:${value}`); return { width: 88, height: 88 } },
    image: async () => ({ width: 64, height: 64 }),
    emoji: async () => undefined
  }
  return { images, asked }
}

async function prepare (name: string, fields: TemplateFields): Promise<{ size: [number, number], asked: string[] }> {
  const { images, asked } = recorder()
  const draw = await templateByName(name)!.prepare({ fonts: createFontRegistry(), images }, fields)
  return { size: [draw.width, draw.height], asked }
}

describe('the profile card, prepared', () => {
  it('fetches the avatar, the decoration, the banner and each badge, in order', async () => {
    const { size, asked } = await prepare('profile', { username: 'Ada', avatar: 'https://a.example/a.png', decoration: 'star', banner: 'space', badges: 'crown, https://b.example/b.png,heart' })
    assert.deepEqual(size, [800, 300])
    assert.deepEqual(asked, ['avatar:https://a.example/a.png', 'decoration:icon:star', 'banner:banner:space', 'badges:icon:crown', 'badges:icon:https://b.example/b.png', 'badges:icon:heart'])
  })
  it('is as high as what it shows; small is three quarters of large', async () => {
    assert.deepEqual((await prepare('profile', { subtitle: 'Hi' })).size, [800, 375])
    assert.deepEqual((await prepare('profile', { xp: '5' })).size, [800, 375])
    assert.deepEqual((await prepare('profile', { subtitle: 'Hi', level: '2' })).size, [800, 450])
    assert.deepEqual((await prepare('profile', { subtitle: 'Hi', level: '2', size: 'small' })).size, [600, 338])
  })
  it('reads badges from a JSON array (a body\'s, as the route hands it on) as from commas, and names a bad item by its place', async () => {
    const { asked } = await prepare('profile', { badges: JSON.stringify(['crown', ' https://b.example/b.png ', 'heart']) })
    assert.deepEqual(asked, ['badges:icon:crown', 'badges:icon:https://b.example/b.png', 'badges:icon:heart'])
    assert.deepEqual((await prepare('profile', { badges: '[]' })).asked, [])
    await assert.rejects(prepare('profile', { badges: JSON.stringify(Array.from({ length: MAX_BADGES + 1 }, () => 'star')) }), { code: 'VALIDATION', details: { field: 'badges' } })
    await assert.rejects(prepare('profile', { badges: JSON.stringify(['star', 'heart', 7]) }), { code: 'VALIDATION', details: { field: 'badges[2]' } })
    await assert.rejects(prepare('profile', { badges: '[star' }), { code: 'VALIDATION', details: { field: 'badges' } })
  })
  it(`draws up to ${MAX_BADGES} badges and refuses more`, async () => {
    await prepare('profile', { badges: Array.from({ length: MAX_BADGES }, () => 'star').join(',') })
    await assert.rejects(prepare('profile', { badges: Array.from({ length: MAX_BADGES + 1 }, () => 'star').join(' ') }), { code: 'VALIDATION', details: { field: 'badges' } })
  })
  it('names the field of each bad value', async () => {
    await assert.rejects(prepare('profile', { status: 'away' }), (err: any) => err.code === 'VALIDATION' && err.details.field === 'status')
    const bad: TemplateFields[] = [{ size: 'medium' }, { avatar_shape: 'star' }, { banner_style: 'tiled' }, { banner_blur: '100' }, { banner_brightness: '150' }, { level: '-1' }, { xp: 'lots' }, { max_xp: '0' }, { rank: '0' }, { member_since: 'soon' }]
    for (const fields of bad) {
      await assert.rejects(prepare('profile', fields), { code: 'VALIDATION', details: { field: Object.keys(fields)[0] } })
    }
    for (const field of ['accent', 'accent_end', 'background', 'color_bar', 'color_text']) {
      await assert.rejects(prepare('profile', { [field]: 'plaid' }), { code: 'INVALID_COLOR', details: { field } })
    }
    await assert.rejects(prepare('profile', { font: 'No Such Font' }), { code: 'UNKNOWN_FONT', details: { field: 'font' } })
  })
})

describe('the now-playing card, prepared', () => {
  it('fetches the album art, and is 1000×300', async () => {
    const { size, asked } = await prepare('nowplaying', { title: 'T', album_art: 'https://a.example/art.png' })
    assert.deepEqual(size, [1000, 300])
    assert.deepEqual(asked, ['album_art:https://a.example/art.png'])
  })
  it('takes elapsed up to the duration, any elapsed without one', async () => {
    await prepare('nowplaying', { elapsed: '3:00', duration: '3:00' })
    await prepare('nowplaying', { elapsed: '5:00:00' })
    await assert.rejects(prepare('nowplaying', { elapsed: '3:01', duration: '3:00' }), { code: 'VALIDATION', details: { field: 'elapsed' }, message: /3:01 is past the duration 3:00/ })
  })
  it('names the field of each bad value', async () => {
    const bad: TemplateFields[] = [{ theme: 'neon' }, { queue: '1.5' }, { queue: '2000000' }, { duration: 'long' }, { elapsed: '-3' }]
    for (const fields of bad) {
      await assert.rejects(prepare('nowplaying', fields), { code: 'VALIDATION', details: { field: Object.keys(fields)[0] } })
    }
    await assert.rejects(prepare('nowplaying', { accent: 'plaid' }), { code: 'INVALID_COLOR', details: { field: 'accent' } })
  })
  it('writes times as clocks', () => {
    assert.deepEqual([clock(0), clock(65), clock(3599), clock(3723)], ['0:00', '1:05', '59:59', '1:02:03'])
  })
})
