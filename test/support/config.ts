// The configuration tests and benchmarks start from: everything default, data in a
// folder of their own, and the limits out of the way (tests of limits set their own).
// The result cache is off: a test that draws one picture twice means to draw it twice
// (the cache's own tests turn it on).
import { type Config, loadConfig } from '../../src/config.js'

export function testConfig (dataDir: string, overrides: Partial<Config> = {}): Config {
  // Tests never reach Discord's CDN: loopback, which the fetcher refuses unless a test allows it.
  return { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), rateLimitMax: 1_000_000_000, rateLimitIpMax: 1_000_000_000, workTimeoutMs: 0, discordCdnUrl: 'http://127.0.0.1:9', resultCacheMaxBytes: 0, ...overrides }
}
