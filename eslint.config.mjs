// Lint: neostandard (the style of fastify/demo), with TypeScript. `npm run lint`; part
// of `npm test`. The generated client types and build output are not ours to style.
//
// And the layer rules of src/ (docs/architecture.md, "Layers"): a module imports only
// from its own layer or the layers below it, features import no other feature but the
// ones named, generation/'s sub-domains keep their own order, and no file imports itself
// back through others. eslint-plugin-import-x
// checks them on every import, so `npm test` fails on the first one that runs up a layer.
import { createNodeResolver, importX } from 'eslint-plugin-import-x'
import neostandard from 'neostandard'

/**
 * src/ from the bottom up: each entry a layer, its rooms (folders, or files at the top
 * of src/). A room may import from its own layer's other rooms only where FEATURE_USES
 * says so, and from every layer below.
 */
export const LAYERS = [
  ['runtime', 'errors.ts', 'types', 'metrics'],
  ['images'],
  ['remote-fetch'],
  ['config', 'config.ts', 'env-file.ts'],
  ['store', 'result-cache'],
  ['work'],
  ['http'],
  ['access'],
  ['colors', 'gifs', 'conversion', 'generation', 'account', 'links', 'playground', 'system', 'webhooks'],
  ['app.ts', 'server.ts', 'cli']
]

/** Rooms of one layer that may use another of the same layer (a library of theirs). */
const SAME_LAYER_USES = {
  generation: ['colors'], // colour parsing of the layer model and the templates
  conversion: ['colors'], // the background colour of a flattened image
  playground: ['generation'], // describes the templates' fields
  config: ['config.ts', 'env-file.ts'], // config.ts is the folder's entry: loadConfig and Config
  'config.ts': ['config'],
  'env-file.ts': ['config', 'config.ts'],
  'server.ts': ['app.ts'], // the process runs the app
  cli: ['app.ts']
}

/**
 * Inside src/generation/, the same from the bottom up: fonts and named images know no
 * template, and nothing below the service knows it. The templates and /gen/custom draw
 * with canvas/ (draw.ts, color.ts, canvas-pool.ts) and the pipeline above them runs them:
 * no two folders of generation/ import each other.
 */
export const GENERATION_LAYERS = [
  ['drawable.ts'],
  ['text', 'locale'],
  ['assets'],
  ['canvas'],
  ['templates', 'custom', 'template-registry.ts'],
  ['pipeline'],
  ['service.ts'],
  ['routes.ts']
]

const GENERATION_SAME_LAYER_USES = {
  custom: ['templates'],
  'template-registry.ts': ['templates']
}

/** no-restricted-paths zones: each room may not import from the layers above it, nor from its own layer's rooms but the ones `sameLayerUses` names. */
function layerZones (layers, sameLayerUses, dir) {
  const path = (room) => `./${dir}/${room}`
  const zones = []
  layers.forEach((layer, level) => {
    const above = layers.slice(level + 1).flat()
    for (const room of layer) {
      const allowed = new Set(sameLayerUses[room] ?? [])
      const sameLayer = layer.filter((other) => other !== room && !allowed.has(other))
      const from = [...above, ...sameLayer]
      if (from.length === 0) continue
      zones.push({
        target: path(room),
        from: from.map(path),
        message: `${dir}/${room} may not import from there: see the layer rules in docs/architecture.md ("Layers").`
      })
    }
  })
  return zones
}

export default [
  ...neostandard({
    ts: true,
    ignores: ['dist/**', '.dist-next-*/**', '.dist-old-*/**', 'coverage/**', 'clients/typescript/dist/**', 'clients/typescript/src/schema.ts']
  }),
  {
    rules: {
      // `void promise;` marks a promise deliberately not awaited (a background loop, a
      // fire-and-forget close); as an expression, void stays refused.
      'no-void': ['error', { allowAsStatement: true }],
      // Control characters are matched on purpose: refused in keys, colour names and
      // seeds, kept out of Markdown link destinations and autolinks.
      'no-control-regex': 'off'
    }
  },
  {
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // no-cycle reads the files an import leads to: they are TypeScript.
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      // Our imports name the compiled file (./x.js) of a TypeScript source (./x.ts).
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs'], extensionAlias: { '.js': ['.ts', '.js'] } })]
    },
    rules: {
      'import-x/no-restricted-paths': ['error', {
        basePath: import.meta.dirname,
        zones: [...layerZones(LAYERS, SAME_LAYER_USES, 'src'), ...layerZones(GENERATION_LAYERS, GENERATION_SAME_LAYER_USES, 'src/generation')]
      }],
      // A circle of files that import each other at run time (type-only imports are not
      // followed: they leave nothing in the built code). Layers are checked with types too.
      'import-x/no-cycle': ['error', { ignoreExternal: true }]
    }
  }
]
