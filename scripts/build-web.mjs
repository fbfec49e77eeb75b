#!/usr/bin/env node
// Builds the browser pages (web/) into dist/web/: each page's main.ts bundled and
// minified by esbuild into one main.js, its style.css minified, its index.html copied.
// Nothing is fetched at run time: the server serves these files (src/playground/).
// Run by scripts/prepare.mjs after compiling src/, and by `npm run build`.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const WEB_PAGES = ['playground', 'console']

/** Bundles every page; returns the bytes written per file, for the build's log. */
export async function buildWeb (outDir = path.join(root, 'dist')) {
  // Imported here rather than at the top: prepare.mjs loads this module before it knows
  // the dependencies (esbuild among them) are installed.
  const esbuild = await import('esbuild')
  const sizes = {}
  for (const page of WEB_PAGES) {
    const from = path.join(root, 'web', page)
    const to = path.join(outDir, 'web', page)
    fs.rmSync(to, { recursive: true, force: true })
    fs.mkdirSync(to, { recursive: true })
    await esbuild.build({
      entryPoints: [path.join(from, 'main.ts'), path.join(from, 'style.css')],
      outdir: to,
      bundle: true,
      minify: true,
      format: 'esm',
      target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
      legalComments: 'none',
      logLevel: 'warning'
    })
    fs.copyFileSync(path.join(from, 'index.html'), path.join(to, 'index.html'))
    for (const name of fs.readdirSync(to)) sizes[`${page}/${name}`] = fs.statSync(path.join(to, name)).size
  }
  return sizes
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // --out <folder>: build there instead of dist/ (scripts/prepare.mjs builds beside dist/).
  const out = process.argv.indexOf('--out')
  const sizes = await buildWeb(out > 0 ? path.resolve(process.argv[out + 1]) : undefined)
  for (const [name, size] of Object.entries(sizes)) process.stderr.write(`[build-web] dist/web/${name}: ${size} bytes\n`)
}
