// Fonts loaded into the canvas, in the threads that draw (src/generation/pipeline/thread.ts). The
// registry (fonts.ts) decides which files make which family; this loads them.
import path from 'node:path'
import { GlobalFonts } from '@napi-rs/canvas'
import { emojiFontInDataDir, isJoinedEmojiFont } from './emoji-font.js'
import { createFontRegistry, EMOJI_FAMILY, FALLBACK_FAMILY, type FontRegistry } from './fonts.js'
import { registerJoinedEmojiFont } from './joined-emoji.js'

// GlobalFonts is process-wide in @napi-rs/canvas: each file is registered once per
// process, whichever thread's registry asked first.
const registeredFiles = new Set<string>()

export function loadFont (file: string, family: string): boolean {
  const key = `${family}\n${file}`
  if (registeredFiles.has(key)) return true
  const ok = GlobalFonts.registerFromPath(file, family) !== null
  if (ok) registeredFiles.add(key)
  if (ok && family === EMOJI_FAMILY && isJoinedEmojiFont(file)) registerJoinedEmojiFont()
  return ok
}

/**
 * The fonts a drawing thread draws with: bundled and DATA_DIR/fonts, and the emoji font
 * unpacked into DATA_DIR/cache to be mapped rather than held (emoji-font.ts; without a
 * data folder, the WOFF2, which draws the same at a much higher memory cost).
 */
export function createDrawingFonts (options: { dataDir?: string } = {}): FontRegistry {
  const { dataDir } = options
  const registry = createFontRegistry({
    operatorDir: dataDir === undefined ? undefined : path.join(dataDir, 'fonts'),
    load: loadFont,
    emojiFile: dataDir === undefined ? undefined : emojiFontInDataDir(dataDir)
  })
  answerTheHostDefault(registry)
  return registry
}

/**
 * The family @napi-rs/canvas's text layout asks for as its default (for a line's metrics,
 * even when every glyph is in the requested fonts). Its font collection ends in a font
 * manager that scans /usr/share/fonts/ (a path compiled into the library, not switched
 * off by DISABLE_SYSTEM_FONTS_LOAD), so on a host with fonts-liberation it answers with
 * LiberationSerif-Regular.ttf (metric-compatible with Times New Roman), and the host's
 * font shaped the layout. Found by watching /proc/self/maps per call; see
 * test/system/process/drawing-threads.test.ts.
 */
export const HOST_DEFAULT_FAMILY = 'Times New Roman'

/**
 * Registers the first family of the fallback chain (Noto Sans, regular) under the host
 * default's name, so that the collection finds it among ours and never asks the host. The
 * name is not one /list/fonts offers: a request for it is refused as an unknown font.
 */
function answerTheHostDefault (registry: FontRegistry): void {
  const regular = registry.info().find((f) => f.name === FALLBACK_FAMILY)?.files[0]
  if (regular !== undefined) loadFont(regular, HOST_DEFAULT_FAMILY)
}
