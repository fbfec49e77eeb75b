// Lint: neostandard (the style of fastify/demo), with TypeScript. `npm run lint`; part
// of `npm test`. The generated client types and build output are not ours to style.
import neostandard from 'neostandard'

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
    // The heavy-work engine knows no feature: features hand it their thread code and
    // their priors (docs/architecture.md, "What may import what").
    files: ['src/work/**'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          group: ['../colors/*', '../gifs/*', '../conversion/*', '../generation/*', '../account/*', '../playground/*', '../http/*'],
          message: 'src/work/ imports no feature and nothing of http/: let the feature hand in its thread code (src/work/thread.ts) or its priors (src/app.ts).'
        }]
      }]
    }
  }
]
