// The golden-image cases: every template and a set of /gen/custom descriptions covering
// every element type and text option, rendered through the HTTP endpoint and compared
// with the PNGs stored in test/system/golden/reference/ (regenerate them with
// `node --import tsx scripts/update-golden.ts`, see docs/generation.md).
// Images named by URL come from a loopback server allowed through `remoteFetchAllow`
// (REMOTE_FETCH_ALLOW), drawn here from code so that they are the same on every run.
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp, { type Sharp } from 'sharp'
import { parseAllowList } from '../../../src/remote-fetch/address.js'
import { createTestApp, type TestApp } from '../../support/helpers.js'

export const GOLDEN_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'reference')

/**
 * Tolerance of the comparison. Skia inside @napi-rs/canvas draws the same bytes on
 * every run here; the slack absorbs anti-aliasing changes of a canvas upgrade while a
 * moved, resized or missing element, or one changed character, still fails.
 */
export const TOLERANCE = {
  /** Mean absolute difference over all channels of all pixels, on the 0..255 scale. */
  meanAbsDiff: 0.5,
  /** A pixel is bad when one of its channels differs by more than this. */
  pixelThreshold: 40,
  /** Largest fraction of bad pixels: 92 of a 1024×450 banner, where one changed digit is about 150. */
  maxBadFraction: 0.0002
}

export interface GoldenCase {
  name: string
  /** A path with a query string (GET) or a JSON body (POST). `{img}` is the image server's origin. */
  url: string
  body?: unknown
  /** The answer's content type: image/png unless said. */
  type?: string
}

/**
 * An animation checked by its frame count, its delays and one frame's pixels, stored as
 * test/system/golden/reference/animated/{name}.frame{frame}.png (scripts/update-golden.ts writes it too).
 */
export interface AnimatedGoldenCase extends GoldenCase {
  frame: number
  frames: number
  delays: number[]
}

/** The spinning avatar's frame delays, in ms (GIF keeps centiseconds): uneven, so a lost delay shows. */
export const SPINNER_DELAYS = [40, 80, 120, 60, 60, 60, 200, 40, 80, 120, 60, 100]

export const ANIMATED_GOLDEN_DIR = path.join(GOLDEN_DIR, 'animated')

export const ANIMATED_GOLDEN_CASES: readonly AnimatedGoldenCase[] = [
  // docs/generation.md, "Animated pictures": the avatar's frames and delays, the rest drawn over each.
  { name: 'welcome-animated', url: '/gen/welcome', type: 'image/gif', body: { username: 'Alice <:blob:111111111111111111>', avatar: '{img}/spinner.gif', members: 'Member #42', banner: 'space', output: 'gif' }, frame: 6, frames: SPINNER_DELAYS.length, delays: SPINNER_DELAYS },
  // A leaderboard whose second player's avatar moves: the other rows drawn once, over each frame.
  {
    name: 'leaderboard-animated',
    url: '/gen/leaderboard',
    type: 'image/gif',
    body: { title: 'Weekly voice time', output: 'gif', players: [{ username: 'alice', display_name: 'Alice', avatar: '{img}/avatar.png', value: 5400, label: 'min' }, { username: 'spinner', display_name: 'Spinner 🌀', avatar: '{img}/spinner.gif', value: 4210, label: 'min' }, { username: 'carol', value: 980, label: 'min' }] },
    frame: 6,
    frames: SPINNER_DELAYS.length,
    delays: SPINNER_DELAYS
  },
  // The profile's avatar and the now-playing card's album art move; the art's tint is its first frame's.
  { name: 'profile-animated', url: '/gen/profile', type: 'image/gif', body: { display_name: 'สมศักดิ์ ใจดี', username: 'somsak', avatar: '{img}/spinner.gif', status: 'online', level: '3', xp: '40', max_xp: '100', output: 'gif' }, frame: 4, frames: SPINNER_DELAYS.length, delays: SPINNER_DELAYS },
  { name: 'nowplaying-animated', url: '/gen/nowplaying', type: 'image/gif', body: { title: 'Spinning Around', artist: 'Kylie', album_art: '{img}/spinner.gif', elapsed: '42', duration: '208', output: 'gif' }, frame: 9, frames: SPINNER_DELAYS.length, delays: SPINNER_DELAYS }
]

/** A leaderboard's players as a bot sends them: canvacord's keys, ranked by the order given. */
const LEADERBOARD_PLAYERS = [
  { displayName: 'Alice', username: 'alice', avatar: '{img}/avatar.png', level: 42, xp: 1_254_300, id: '101' },
  { displayName: 'Bob the Builder', username: 'bob', avatar: '{img}/avatar.jpg', level: 39, xp: 982_140, id: '102' },
  { displayName: 'Chloé', username: 'chloe', level: 35, xp: 730_500, id: '103' },
  { displayName: 'Dmitri Ivanovich Mendeleev the Periodic', username: 'dmitri', avatar: '{img}/avatar.png', level: 30, xp: 412_000, id: '104' },
  { displayName: 'Eve 🌟', username: 'eve', level: 28, xp: 255_900, id: '105' },
  { username: 'frank', avatar: '{img}/avatar.jpg', level: 21, xp: 99_999, id: '106' },
  { displayName: 'Grace', username: 'grace', level: 17, xp: 12_345, id: '107' },
  { displayName: 'Heidi', username: 'heidi', avatar: '{img}/avatar.png', level: 9, xp: 4_200, id: '108' },
  { displayName: 'Ivan', username: 'ivan', level: 3, xp: 980, id: '109' },
  { displayName: 'Judy', username: 'judy', level: 1, xp: 12, id: '110' },
  { displayName: 'Mallory', username: 'mallory', level: 1, xp: 5, id: '111' },
  { displayName: 'Niaj', username: 'niaj', level: 0, xp: 0, id: '112' }
]

const LONG_NAME = 'ゆうき🎉 The Extraordinarily Long Username of 世界一の猫 🚀🐱 Μαρία Ёжик'

export const GOLDEN_CASES: readonly GoldenCase[] = [
  { name: 'welcome-basic', url: '/gen/welcome', body: { username: 'Alice', avatar: '{img}/avatar.png', members: 'Member #42' } },
  { name: 'welcome-long-name', url: '/gen/welcome', body: { username: LONG_NAME, avatar: '{img}/avatar.png', members: 'You are our 1,234th member! 🎈 ようこそ' } },
  { name: 'welcome-no-avatar-query', url: `/gen/welcome?username=${encodeURIComponent('Ёжик 日本')}&members=Member%20%237&color_welcome=255,200,0&color_username=%2300ffcc&text=Hello%21` },
  { name: 'welcome-banner-icon', url: '/gen/welcome', body: { username: 'Bob', avatar: '{img}/avatar.png', banner: 'SPACE', icon: 'star', members: 'Member #2', font: 'Bebas Neue', background: '#102030' } },
  { name: 'goodbye-basic', url: '/gen/goodbye', body: { username: 'Zed 👋', avatar: '{img}/avatar.png', members: 'We are 41 now' } },
  // Hosted names (docs/generation.md, "Icon and banner names"): the sunset banner keeps its sun and sea clear of the text.
  { name: 'goodbye-sunset-neko', url: '/gen/goodbye', body: { username: 'Zed', members: 'We are 41 now', banner: 'sunset', icon: 'neko' } },
  { name: 'welcome-mountain-dragon', url: '/gen/welcome', body: { username: 'Kai', members: 'Member #7', banner: 'mountain', icon: 'dragon' } },
  // Scripts (docs/generation.md, "Scripts and emoji"): Arabic right to left, Hangul, Thai
  // (marks above and below their letters), a name mixing Latin, Hangul and emoji (❤️‍🔥 and
  // 🏳️‍🌈, which the canvas alone splits, as one emoji each), and a flag as the initial.
  { name: 'welcome-arabic', url: '/gen/welcome', body: { username: 'ليلى المصري', avatar: '{img}/avatar.png', members: 'العضو رقم 42' } },
  { name: 'welcome-korean', url: '/gen/welcome', body: { username: '김민준', avatar: '{img}/avatar.png', members: '멤버 #42' } },
  { name: 'welcome-thai', url: '/gen/welcome', body: { username: 'สมศักดิ์ ใจดี', avatar: '{img}/avatar.png', members: 'สมาชิกคนที่ 42' } },
  { name: 'welcome-mixed-scripts', url: '/gen/welcome', body: { username: 'Mina 민아 ❤️‍🔥🏳️‍🌈', avatar: '{img}/avatar.png', members: 'Member #42 🎉' } },
  { name: 'welcome-flag-initial', url: '/gen/welcome', body: { username: '🇯🇵 Taro', members: 'Member #42' } },
  // 8420 of 12000: both numbers in one unit.
  { name: 'rank-xp-units', url: '/gen/rank', body: { username: 'Ann', level: '7', rank: '3', xp: '8420', max_xp: '12000', banner: 'aurora' } },
  { name: 'rank-basic', url: '/gen/rank', body: { username: 'Ann 🌟 アン', avatar: '{img}/avatar.png', level: '12', rank: '3', xp: '450', max_xp: '1000' } },
  { name: 'rank-compact-colours', url: '/gen/rank', body: { username: LONG_NAME, level: '1234', rank: '15000', xp: '12500', max_xp: '20000', color_bar: 'orange', color_text: '200,220,255', background: '#2b2d31', font: 'Nunito' } },
  // The profile card (docs/generation.md, "Templates"): a decoration, each presence, badges
  // from the icons and a URL, both banner styles, both avatar shapes, the small size, and
  // names in Latin, Arabic, Japanese, Korean and Thai with emoji; labels and dates in the locale.
  { name: 'profile-latin', url: '/gen/profile', body: { display_name: 'Alice ✨', username: 'alice', avatar: '{img}/avatar.png', decoration: '{img}/decoration.png', status: 'dnd', badges: 'star,heart,crown,{img}/emojis/111111111111111111.png', subtitle: 'Building bots and drinking tea 🍵 — ask me about canvases, fonts and every script under the sun', member_since: '2021-03-14', level: '12', rank: '3', xp: '8420', max_xp: '12000' } },
  { name: 'profile-arabic-full-banner', url: '/gen/profile', body: { display_name: 'ليلى المصري', username: 'layla', avatar: '{img}/avatar.png', avatar_shape: 'square', status: 'idle', banner: 'space', banner_style: 'full', banner_blur: '6', banner_brightness: '60', subtitle: 'مرحبا بكم في خادمنا 🌙', member_since: '175928847299117063', locale: 'ar', accent: '#f47fff', accent_end: '#ffd36e' } },
  { name: 'profile-japanese-small', url: '/gen/profile', body: { display_name: 'さくら 🌸', username: 'sakura', status: 'streaming', banner: 'aurora', size: 'small', level: '45', xp: '3100', max_xp: '5000', rank: '1', color_bar: '#ff7eb6', subtitle: 'こんにちは！配信中です', locale: 'ja' } },
  { name: 'profile-korean', url: '/gen/profile', body: { display_name: '김민준', username: 'minjun', avatar: '{img}/avatar.jpg', status: 'offline', badges: 'shield,bolt', member_since: '1700000000', accent: '#2b8a3e', locale: 'ko' } },
  // The now-playing card: the album art's dominant colour as the tint (dark and light), a
  // colour given, a live stream without art, and titles in every script; labels in the locale.
  { name: 'nowplaying-latin', url: '/gen/nowplaying', body: { title: 'Never Gonna Give You Up', artist: 'Rick Astley', album_art: '{img}/album.png', elapsed: '1:23', duration: '3:33', next: 'Together Forever', queue: '4' } },
  { name: 'nowplaying-japanese-light', url: '/gen/nowplaying', body: { title: '夜に駆ける', artist: 'YOASOBI', album_art: '{img}/album.png', elapsed: '95', duration: '261', theme: 'light', locale: 'ja' } },
  { name: 'nowplaying-arabic-korean', url: '/gen/nowplaying', body: { title: 'سهرت الليل', artist: '아이유 · فيروز', album_art: '{img}/avatar.png', elapsed: '2:05', duration: '4:10', next: '밤편지', accent: '#c0392b', locale: 'ko' } },
  { name: 'nowplaying-thai-live', url: '/gen/nowplaying', body: { title: 'ลูกทุ่ง radio 📻 เพลงสบาย ๆ', artist: 'สถานีวิทยุ', elapsed: '1:02:05', theme: 'light', accent: 'tomato', queue: '12', locale: 'th' } },
  // Labels, numbers and dates in the request's locale (issue 40); Arabic mirrors the card.
  { name: 'welcome-locale-fr', url: '/gen/welcome', body: { username: 'Amélie', avatar: '{img}/avatar.png', member_count: '1234', locale: 'fr' } },
  { name: 'goodbye-locale-pt-br', url: '/gen/goodbye', body: { username: 'João', member_count: '41', locale: 'pt-br', banner: 'sunset' } },
  { name: 'rank-locale-ja', url: '/gen/rank', body: { username: 'ゆうき', avatar: '{img}/avatar.png', level: '12', rank: '3', xp: '8420', max_xp: '12000', status: 'online', locale: 'ja' } },
  { name: 'rank-locale-ar', url: '/gen/rank', body: { username: 'ليلى المصري', avatar: '{img}/avatar.png', level: '12', rank: '3', xp: '8420', max_xp: '12000', status: 'dnd', locale: 'ar' } },
  { name: 'welcome-locale-ar', url: '/gen/welcome', body: { username: 'ليلى المصري', avatar: '{img}/avatar.png', member_count: '42', icon: 'star', locale: 'ar' } },
  // The profile and now-playing cards mirrored: art and avatar on the right, the badges on
  // the left, the bars filling from the right, the time played on the right; a Latin title
  // and status aligned on the right as the Arabic around them.
  { name: 'profile-locale-ar', url: '/gen/profile', body: { display_name: 'ليلى المصري ✨', username: 'layla', avatar: '{img}/avatar.png', decoration: '{img}/decoration.png', status: 'online', badges: 'star,heart,crown,{img}/emojis/111111111111111111.png', subtitle: 'Building bots 🍵 أحب البرمجة والشاي', banner: 'aurora', member_since: '2021-03-14', level: '12', rank: '3', xp: '8420', max_xp: '12000', locale: 'ar' } },
  { name: 'nowplaying-locale-ar', url: '/gen/nowplaying', body: { title: 'سهرت الليل', artist: 'فيروز', album_art: '{img}/album.png', elapsed: '1:23', duration: '3:33', next: 'زهرة المدائن', queue: '4', locale: 'ar' } },
  { name: 'nowplaying-locale-ar-light', url: '/gen/nowplaying', body: { title: 'Never Gonna Give You Up', artist: 'Rick Astley', elapsed: '42', duration: '213', theme: 'light', locale: 'ar' } },
  { name: 'quote-locale-ar', url: '/gen/quote', body: { username: 'ابن خلدون', avatar: '{img}/avatar.png', text: 'الإنسان مدني بالطبع', locale: 'ar' } },
  { name: 'quote-locale-ja', url: '/gen/quote', body: { text: '急がば回れ', locale: 'ja' } },
  { name: 'rank-status-streaming', url: '/gen/rank', body: { username: 'Ann', avatar: '{img}/avatar.png', level: '3', xp: '40', status: 'streaming' } },
  // Discord markup (docs/generation.md, "Discord markup"): custom emoji from the CDN (the image server), mentions as words.
  { name: 'welcome-discord-markup', url: '/gen/welcome', body: { username: 'Kai <:blob:111111111111111111>', avatar: '{img}/avatar.png', members: '<@80351110224678912> invited you <a:party:222222222222222222>', text: 'WELCOME <:blob:111111111111111111>' } },
  // A short quote: its author just below it, not at the foot of the card.
  { name: 'quote-short', url: '/gen/quote', body: { username: 'Grace Hopper', text: 'Ship it.' } },
  { name: 'leaderboard-basic', url: '/gen/leaderboard', body: { title: 'Top chatters', subtitle: 'Server XP this season', image: 'star', highlight: '104', players: LEADERBOARD_PLAYERS } },
  // The second page of 5 in French: ranks from 6, no medals, numbers in full as French writes them.
  { name: 'leaderboard-page-two', url: '/gen/leaderboard', body: { players: LEADERBOARD_PLAYERS, page: 2, per_page: 5, highlight: 'grace', abbreviate: 'false', color_accent: 'orange', banner: 'aurora', locale: 'fr' } },
  // Japanese labels and numbers (1.2万).
  { name: 'leaderboard-japanese', url: '/gen/leaderboard', body: { locale: 'ja', subtitle: '今週のトップ', image: 'neko', players: [{ display_name: 'ゆうき', username: 'yuki', avatar: '{img}/avatar.png', level: 31, xp: 123_456 }, { display_name: 'はると 🎮', username: 'haruto', level: 27, xp: 98_000 }, { display_name: 'さくら', username: 'sakura', avatar: '{img}/avatar.jpg', level: 12, xp: 8_400 }] } },
  // Every script and emoji: Arabic right to left, Japanese, Korean, Thai, emoji and Discord's custom emoji; a value with its label.
  {
    name: 'leaderboard-scripts',
    url: '/gen/leaderboard',
    body: {
      title: 'أفضل الأعضاء 🏆',
      label: 'messages',
      // Right to left: the card mirrored, its labels in Arabic.
      locale: 'ar',
      highlight: 'minjun',
      players: [
        { display_name: 'ليلى المصري', username: 'layla', avatar: '{img}/avatar.png', value: 15230, level: 12 },
        { display_name: 'さくら 🌸', username: 'sakura', value: 9870, level: 10 },
        { display_name: '김민준', username: 'minjun', avatar: '{img}/avatar.jpg', value: 4410, level: 8 },
        { display_name: 'สมศักดิ์ ใจดี', username: 'somsak', value: 1999, level: 5 },
        { display_name: 'Kai <:blob:111111111111111111> ❤️‍🔥', username: 'kai', avatar: '{img}/avatar.png', value: 42, level: 1, label: 'wins' }
      ]
    }
  },
  { name: 'quote-basic', url: '/gen/quote', body: { username: 'Ada Lovelace', avatar: '{img}/avatar.png', text: 'The Analytical Engine weaves algebraic patterns just as the Jacquard loom weaves flowers and leaves. 機械 🌸' } },
  {
    name: 'custom-shapes',
    url: '/gen/custom',
    body: {
      output: 'png',
      base: { type: 'bitmap', width: 480, height: 320, color: '#203040' },
      images: [
        { type: 'bitmap', x: 20, y: 20, width: 120, height: 70, color: 'tomato', round: 20 },
        { type: 'bitmap', x: 170, y: 20, width: 120, height: 70, color: '0, 200, 120', rotate: 30 },
        { type: 'bitmap', x: 320, y: 20, width: 120, height: 70, color: 'white', opacity: 0.4 },
        { type: 'circle', x: 20, y: 120, radius: 40, color: 'gold' },
        { type: 'circle', x: 110, y: 120, radius: 40, color: '255,0,255,128' },
        { type: 'triangle', x: 210, y: 120, width: 60, height: 60, cut: 'topleft', color: 'red' },
        { type: 'triangle', x: 280, y: 120, width: 60, height: 60, cut: 'topright', color: 'lime' },
        { type: 'triangle', x: 350, y: 120, width: 60, height: 60, cut: 'bottomleft', color: 'deepskyblue' },
        { type: 'triangle', x: 210, y: 200, width: 60, height: 60, cut: 'bottomright', color: 'yellow' },
        { type: 'triangle', x: 300, y: 200, width: 80, height: 80, cut: 'topleft', color: 'orange', rotate: 45, opacity: 5 },
        // Skipped: drawn, this would cover the whole picture in red.
        { type: 'bitmap', x: 0, y: 0, width: 480, height: 320, color: 'red', skip: true }
      ]
    }
  },
  {
    name: 'custom-url-images',
    url: '/gen/custom',
    body: {
      output: 'png',
      base: { url: '{img}/wide.png', width: 480, height: 300 },
      images: [
        // A round avatar: round = half the side.
        { url: '{img}/avatar.png', x: 20, y: 20, size: 120, round: 60 },
        // Width alone keeps the aspect ratio (320×160 → 200×100).
        { url: '{img}/wide.png', x: 160, y: 20, width: 200 },
        // maxwidth scales down the image's own size.
        { url: '{img}/avatar.png', x: 380, y: 20, maxwidth: 80 },
        { url: '{img}/avatar.jpg', type: 'circle', x: 20, y: 170, radius: 55 },
        { url: '{img}/avatar.png', type: 'triangle', x: 150, y: 170, width: 110, height: 110, cut: 'bottomleft' },
        { url: '{img}/avatar.png', x: 290, y: 170, size: 110, round: 15, rotate: -15, opacity: 0.7, filter: 'grayscale' },
        { url: '{img}/never-fetched.png', x: 0, y: 0, size: 300, skip: true }
      ]
    }
  },
  {
    name: 'custom-texts',
    url: '/gen/custom',
    body: {
      output: 'png',
      base: { width: 600, height: 420, color: '#f4f1ea' },
      texts: [
        { text: 'Left aligned, Noto Serif 28', x: 20, y: 16, font: 'Noto Serif', size: 28, color: '#222222' },
        { text: 'Middle', x: 300, y: 60, align: 'm', size: 30, color: 'navy', back: '255,215,0' },
        { text: 'Right', x: 580, y: 60, align: 'r', size: 30, color: 'darkred', underline: true },
        { text: 'A sentence long enough to wrap inside a 260 pixel box, three lines or so.', x: 20, y: 110, width: 260, size: 22, color: 'black', back: '200,230,255', line: 1.4 },
        { text: 'Clipped to 40 pixels of height: only the first lines show up here at all.', x: 320, y: 110, width: 260, height: 40, size: 22, color: 'black', back: '255,220,220' },
        { text: 'Outlined', x: 20, y: 250, size: 48, color: 'white', outlinecolor: 'black', outlinewidth: 3 },
        { text: 'Blurred', x: 300, y: 250, size: 48, color: 'yellow', outlinecolor: 'red', outlinewidth: 2, outlineblur: 8 },
        { text: 'Bold', x: 20, y: 330, size: 34, bold: true, color: '#333', font: 'Roboto' },
        { text: 'Italic', x: 130, y: 330, size: 34, italics: true, color: '#333', font: 'Roboto' },
        { text: 'Both underlined', x: 240, y: 330, size: 34, bold: true, italics: true, underline: true, color: '#333', font: 'Roboto' },
        { texts: ['two lines', 'given as texts'], x: 20, y: 376, size: 16, color: 'teal', font: 'Fira Code' },
        { text: 'Caveat ✍️ 手書き', x: 580, y: 376, align: 'r', size: 30, color: 'purple', font: 'caveat' },
        { text: 'skipped: must not appear', x: 0, y: 0, size: 80, color: 'red', skip: true }
      ]
    }
  },
  {
    name: 'custom-discord-markup',
    url: '/gen/custom',
    body: {
      output: 'png',
      base: { width: 600, height: 300, color: '#313338' },
      texts: [
        { text: 'Hello <:blob:111111111111111111> and <a:party:222222222222222222>!', x: 20, y: 16, size: 32, color: 'white' },
        { text: '<@80351110224678912> joined <#41771983423143937> as <@&41771983423143936> (<@!80351110224678912>)', x: 20, y: 70, size: 20, color: '#dbdee1' },
        // 404 at the CDN: drawn as its :name:.
        { text: 'Gone <:missing:333333333333333333> big <:blob:111111111111111111>', x: 20, y: 104, size: 48, color: '#f2f3f5', outlinewidth: 2, outlinecolor: 'black' },
        { text: 'Wrapped <:blob:111111111111111111> in a box of 260 pixels <a:party:222222222222222222> with its emoji', x: 20, y: 176, width: 260, size: 22, color: 'black', back: '200,230,255', underline: true },
        { text: 'centred <:blob:111111111111111111>', x: 450, y: 190, align: 'm', size: 26, color: 'gold' },
        { text: 'שלום <:blob:111111111111111111> עולם', x: 580, y: 240, align: 'r', size: 26, color: 'white' }
      ]
    }
  },
  {
    name: 'custom-dates-global',
    url: '/gen/custom',
    body: {
      output: 'png',
      base: { width: 500, height: 260, color: 'black' },
      global: { textSize: 26, textColor: '120, 255, 160', textFont: 'Roboto Mono', textOutlineWidth: 2, textOutlineColor: 'darkgreen', textAlign: 'm', textX: 250 },
      texts: [
        { unix: 1700000000, format: 'yyyy-MM-dd HH:mm:ss', y: 20 },
        // 1, not 0: `unix: 0` is the C# client's "no date" (docs/compatibility.md).
        { unix: 1, format: 'd MMMM yyyy, h:mm tt', y: 70 },
        { snowflake: '175928847299117063', format: 'MMM d, yy HH:mm', y: 120 },
        { snowflake: '175928847299117063', y: 170, color: 'white', size: 20, outlinewidth: 0 },
        { text: 'left override', y: 215, x: 10, align: 'l', font: 'Sans Serif' }
      ]
    }
  }
]

export interface GoldenFixture {
  app: TestApp
  /** The image server's origin, what `{img}` stands for. */
  origin: string
  render (c: GoldenCase): Promise<Buffer>
  close (): Promise<void>
}

/**
 * A custom emoji: a disc of `color` with two dark eyes on a transparent square, `frames`
 * frames stacked (an animated GIF; the later frames' eyes move right).
 */
function emoji (side: number, color: readonly [number, number, number], frames = 1): Sharp {
  const data = Buffer.alloc(side * side * frames * 4)
  for (let f = 0; f < frames; f++) {
    for (let y = 0; y < side; y++) {
      for (let x = 0; x < side; x++) {
        const i = ((f * side + y) * side + x) * 4
        const r = side / 2
        if ((x - r + 0.5) ** 2 + (y - r + 0.5) ** 2 > r * r) continue
        const eye = Math.abs(y - side * 0.38) < side * 0.1 && (Math.abs(x - side * (0.33 + f * 0.06)) < side * 0.06 || Math.abs(x - side * (0.67 + f * 0.06)) < side * 0.06)
        data[i] = eye ? 30 : color[0]; data[i + 1] = eye ? 30 : color[1]; data[i + 2] = eye ? 30 : color[2]; data[i + 3] = 255
      }
    }
  }
  return sharp(data, { raw: { width: side, height: side * frames, channels: 4, ...(frames > 1 ? { pageHeight: side } : {}) } })
}

/** Deterministic test pictures: quadrants and a diagonal band make crops, scaling and rounding visible. */
async function pictures (): Promise<Record<string, { type: string, bytes: Buffer }>> {
  const raw = (w: number, h: number) => {
    const data = Buffer.alloc(w * h * 3)
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = (y * w + x) * 3
        const band = Math.abs(x / w - y / h) < 0.08
        const left = x < w / 2
        const top = y < h / 2
        data[i] = band ? 255 : top ? (left ? 230 : 40) : (left ? 30 : 250)
        data[i + 1] = band ? 255 : top ? (left ? 60 : 170) : (left ? 200 : 200)
        data[i + 2] = band ? 255 : top ? (left ? 60 : 240) : (left ? 90 : 40)
      }
    }
    return sharp(data, { raw: { width: w, height: h, channels: 3 } })
  }
  const spinner = Buffer.alloc(96 * 96 * 4 * SPINNER_DELAYS.length)
  SPINNER_DELAYS.forEach((_, f) => {
    for (let y = 0; y < 96; y++) {
      for (let x = 0; x < 96; x++) {
        const i = ((f * 96 + y) * 96 + x) * 4
        // A quarter disc of colour turning by a twelfth of a turn a frame over grey.
        const turn = ((Math.atan2(y - 48, x - 48) / (2 * Math.PI) + 1) * 12 + f) % 12
        const lit = turn < 3
        spinner[i] = lit ? 240 : 90; spinner[i + 1] = lit ? 60 + f * 15 : 90; spinner[i + 2] = lit ? 80 : 110; spinner[i + 3] = 255
      }
    }
  })
  // An avatar decoration: a gold ring with six dots, transparent inside, 1.2 times an avatar's side.
  const decoration = Buffer.alloc(120 * 120 * 4)
  // Album art: a dusk gradient (mostly purple, the dominant colour) with a pale sun.
  const album = Buffer.alloc(160 * 160 * 3)
  for (let y = 0; y < 120; y++) {
    for (let x = 0; x < 120; x++) {
      const i = (y * 120 + x) * 4
      const d = Math.hypot(x - 59.5, y - 59.5)
      const angle = Math.atan2(y - 59.5, x - 59.5)
      const dot = Math.hypot(x - 59.5 - 54 * Math.cos(Math.round(angle / (Math.PI / 3)) * Math.PI / 3), y - 59.5 - 54 * Math.sin(Math.round(angle / (Math.PI / 3)) * Math.PI / 3)) < 7
      if ((d > 50 && d < 58) || dot) { decoration[i] = 250; decoration[i + 1] = 200; decoration[i + 2] = 60; decoration[i + 3] = 255 }
    }
  }
  for (let y = 0; y < 160; y++) {
    for (let x = 0; x < 160; x++) {
      const i = (y * 160 + x) * 3
      const sun = Math.hypot(x - 100, y - 70) < 26
      album[i] = sun ? 255 : 70 + Math.round(y * 0.5); album[i + 1] = sun ? 230 : 30 + Math.round(y * 0.15); album[i + 2] = sun ? 180 : 140 - Math.round(y * 0.2)
    }
  }
  return {
    '/decoration.png': { type: 'image/png', bytes: await sharp(decoration, { raw: { width: 120, height: 120, channels: 4 } }).png().toBuffer() },
    '/album.png': { type: 'image/png', bytes: await sharp(album, { raw: { width: 160, height: 160, channels: 3 } }).png().toBuffer() },
    '/spinner.gif': { type: 'image/gif', bytes: await sharp(spinner, { raw: { width: 96, height: 96 * SPINNER_DELAYS.length, channels: 4, pageHeight: 96 } }).gif({ delay: SPINNER_DELAYS, loop: 0 }).toBuffer() },
    // Custom emoji, as Discord's CDN serves them (/emojis/{id}.png, .gif when animated).
    '/emojis/111111111111111111.png': { type: 'image/png', bytes: await emoji(96, [255, 200, 40]).png().toBuffer() },
    '/emojis/222222222222222222.gif': { type: 'image/gif', bytes: await emoji(64, [90, 200, 255], 2).gif().toBuffer() },
    '/avatar.png': { type: 'image/png', bytes: await raw(128, 128).png().toBuffer() },
    '/avatar.jpg': { type: 'image/jpeg', bytes: await raw(128, 128).jpeg({ quality: 90 }).toBuffer() },
    '/wide.png': { type: 'image/png', bytes: await raw(320, 160).png().toBuffer() }
  }
}

function substitute (value: unknown, origin: string): unknown {
  if (typeof value === 'string') return value.replaceAll('{img}', origin)
  if (Array.isArray(value)) return value.map((v) => substitute(v, origin))
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, origin)]))
  return value
}

/** A loopback image server and an app allowed to fetch from it. */
export async function startGoldenFixture (): Promise<GoldenFixture> {
  const files = await pictures()
  const server = http.createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://x').pathname]
    if (!file) { res.writeHead(404); res.end(); return }
    res.writeHead(200, { 'content-type': file.type }); res.end(file.bytes)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const app = await createTestApp({ config: { remoteFetchAllow: parseAllowList(['127.0.0.1']), discordCdnUrl: origin } })
  return {
    app,
    origin,
    async render (c) {
      const res = await app.app.inject({
        method: c.body === undefined ? 'GET' : 'POST',
        url: c.url,
        headers: app.auth,
        ...(c.body === undefined ? {} : { payload: substitute(c.body, origin) as object })
      })
      if (res.statusCode !== 200 || res.headers['content-type'] !== (c.type ?? 'image/png')) {
        throw new Error(`${c.name}: ${res.statusCode} ${String(res.headers['content-type'])} ${res.body.slice(0, 300)}`)
      }
      return res.rawPayload
    },
    async close () {
      await app.close()
      server.closeAllConnections()
      server.close()
    }
  }
}

export interface Comparison {
  ok: boolean
  meanAbsDiff: number
  badFraction: number
  width: number
  height: number
  /** Why it failed, for the assertion message. */
  reason?: string
  /** A picture of the differences: bad pixels red over a faded reference. */
  diff?: () => Promise<Buffer>
}

async function rgba (png: Buffer): Promise<{ data: Buffer, width: number, height: number }> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height }
}

/** Compares two PNGs pixel by pixel within `tolerance`. */
export async function compareImages (actual: Buffer, expected: Buffer, tolerance = TOLERANCE): Promise<Comparison> {
  const a = await rgba(actual)
  const e = await rgba(expected)
  if (a.width !== e.width || a.height !== e.height) {
    return { ok: false, meanAbsDiff: 255, badFraction: 1, width: a.width, height: a.height, reason: `size ${a.width}×${a.height}, expected ${e.width}×${e.height}` }
  }
  const pixels = a.width * a.height
  const bad = new Uint8Array(pixels)
  let total = 0
  let badCount = 0
  for (let p = 0; p < pixels; p++) {
    let worst = 0
    for (let c = 0; c < 4; c++) {
      const d = Math.abs(a.data[p * 4 + c]! - e.data[p * 4 + c]!)
      total += d
      if (d > worst) worst = d
    }
    if (worst > tolerance.pixelThreshold) { bad[p] = 1; badCount++ }
  }
  const meanAbsDiff = total / (pixels * 4)
  const badFraction = badCount / pixels
  const ok = meanAbsDiff <= tolerance.meanAbsDiff && badFraction <= tolerance.maxBadFraction
  return {
    ok,
    meanAbsDiff,
    badFraction,
    width: a.width,
    height: a.height,
    ...(ok ? {} : { reason: `mean absolute difference ${meanAbsDiff.toFixed(3)} (limit ${tolerance.meanAbsDiff}), ${(badFraction * 100).toFixed(3)}% of pixels off by more than ${tolerance.pixelThreshold} (limit ${(tolerance.maxBadFraction * 100).toFixed(3)}%)` }),
    async diff () {
      const out = Buffer.alloc(pixels * 3)
      for (let p = 0; p < pixels; p++) {
        if (bad[p]) { out[p * 3] = 255; out[p * 3 + 1] = 0; out[p * 3 + 2] = 0; continue }
        const grey = (e.data[p * 4]! + e.data[p * 4 + 1]! + e.data[p * 4 + 2]!) / 3
        out[p * 3] = out[p * 3 + 1] = out[p * 3 + 2] = Math.round(160 + grey / 4)
      }
      return await sharp(out, { raw: { width: a.width, height: a.height, channels: 3 } }).png().toBuffer()
    }
  }
}

/** Writes the actual picture and the diff next to each other in a fresh temp dir; returns the dir. */
export async function writeFailure (name: string, actual: Buffer, comparison: Comparison): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `golden-${name}-`))
  fs.writeFileSync(path.join(dir, `${name}.actual.png`), actual)
  if (comparison.diff) fs.writeFileSync(path.join(dir, `${name}.diff.png`), await comparison.diff())
  return dir
}

/** One frame of an animated answer, as a PNG. */
export async function frameOf (animation: Buffer, frame: number): Promise<Buffer> {
  return await sharp(animation, { page: frame }).png().toBuffer()
}

/** How references are stored: re-encoded losslessly at the highest compression, so the files stay small. */
export async function toReference (png: Buffer): Promise<Buffer> {
  return await sharp(png).png({ compressionLevel: 9, adaptiveFiltering: true }).toBuffer()
}
