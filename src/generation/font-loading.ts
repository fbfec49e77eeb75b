// Fonts loaded into the canvas, in the threads that draw (src/work/worker.ts). The
// registry (fonts.ts) decides which files make which family; this loads them.
import path from 'node:path'
import { GlobalFonts } from '@napi-rs/canvas'
import { emojiFontInDataDir } from './emoji-font.js'
import { createFontRegistry, type FontRegistry } from './fonts.js'

// GlobalFonts is process-wide in @napi-rs/canvas: each file is registered once per
// process, whichever thread's registry asked first.
const registeredFiles = new Set<string>()

export function loadFont (file: string, family: string): boolean {
  const key = `${family}\n${file}`
  if (registeredFiles.has(key)) return true
  const ok = GlobalFonts.registerFromPath(file, family) !== null
  if (ok) registeredFiles.add(key)
  return ok
}

/**
 * The fonts a drawing thread draws with: bundled and DATA_DIR/fonts, and the emoji font
 * unpacked into DATA_DIR/cache to be mapped rather than held (emoji-font.ts; without a
 * data folder, the WOFF2, which draws the same at a much higher memory cost).
 */
export function createDrawingFonts (options: { dataDir?: string } = {}): FontRegistry {
  const { dataDir } = options
  return createFontRegistry({
    operatorDir: dataDir === undefined ? undefined : path.join(dataDir, 'fonts'),
    load: loadFont,
    emojiFile: dataDir === undefined ? undefined : emojiFontInDataDir(dataDir)
  })
}
