// Keys at start-up: API_KEYS added, and a first key made on an empty store.
import type { Config } from '../config.js'
import type { Store } from '../store/interface.js'
import { createKeyService } from './keys.js'

/** Adds API_KEYS, and makes a first key on an empty store; prints that key once. */
export async function prepareKeys (config: Config, store: Store, print: (text: string) => void): Promise<void> {
  const keys = createKeyService(store.keys)
  await keys.addEnvKeys(config.apiKeys)
  const initial = await keys.createInitialKeyIfNone()
  if (initial) {
    const line = '='.repeat(72)
    print([
      '',
      line,
      '  No API key existed, so one was created (named "default").',
      '  It is shown only this once: keep it. Use it as the Authorization header:',
      '',
      `      curl -H "Authorization: ${initial.key}" ${config.publicUrl}/color/random`,
      '',
      '  It is the operator\'s key: the machine\'s capacity is its only limit. Keys you',
      `  create get ${config.rateLimitMax} units per ${Math.round(config.rateLimitWindowMs / 1000)} s (RATE_LIMIT_MAX, RATE_LIMIT_WINDOW; a picture costs 5):`,
      '      npm run cli -- keys create --name mybot          (then: keys limits mybot --rate 600/1m)',
      '  Manage keys with: npm run cli -- keys --help',
      line,
      ''
    ].join('\n'))
  }
}
