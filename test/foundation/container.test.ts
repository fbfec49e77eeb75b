// The container files agree with the code (no Docker engine runs here): the compose
// file sets only settings the server reads, with values it accepts; the Dockerfile
// starts the server the way docs/operations.md and `npm start` do. And the start command itself:
// it runs the built server under jemalloc where Debian's libjemalloc2 is installed.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import { after, describe, it } from 'node:test'
import { loadConfig, SETTING_NAMES } from '../../src/config.js'
import { findJemalloc } from '../../scripts/allocator.mjs'
import { tempDir } from '../helpers.js'
import { freePort, request, until } from '../processes.js'

const dirs: string[] = []
after(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }) })

/** The `environment:` map of one service of a compose file (block form, as ours is written). */
function composeEnvironment (text: string, service: string): Record<string, string> {
  const lines = text.split('\n')
  const start = lines.findIndex((l) => l === `  ${service}:`)
  assert.ok(start >= 0, `service ${service} in compose.yaml`)
  const env: Record<string, string> = {}
  let inEnv = false
  for (const line of lines.slice(start + 1)) {
    if (/^ {2}\S/.test(line) || /^\S/.test(line)) break // the next service, or the next top-level key
    if (/^ {4}environment:\s*$/.test(line)) { inEnv = true; continue }
    if (/^ {4}\S/.test(line)) { inEnv = false; continue }
    const m = /^ {6}([A-Za-z_][A-Za-z0-9_]*):\s*(.*)$/.exec(line)
    if (inEnv && m) env[m[1]!] = m[2]!.replace(/^"(.*)"$/, '$1')
  }
  return env
}

const dockerfile = fs.readFileSync('Dockerfile', 'utf8')
const operations = fs.readFileSync('docs/operations.md', 'utf8')
const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }

describe('compose.yaml', () => {
  const env = composeEnvironment(fs.readFileSync('compose.yaml', 'utf8'), 'api')

  it('sets only settings the server reads, with values it accepts', () => {
    assert.ok(Object.keys(env).length > 0)
    const unknown = Object.keys(env).filter((name) => !(SETTING_NAMES as readonly string[]).includes(name))
    assert.deepEqual(unknown, [], 'variables in compose.yaml the server does not read')
    const config = loadConfig(env)
    assert.match(config.databaseUrl ?? '', /@postgres:5432\//, 'PostgreSQL of the compose file')
    assert.match(config.redisUrl ?? '', /redis:\/\/redis:6379/, 'Redis of the compose file')
  })

  it('runs PostgreSQL and Redis beside the API', () => {
    const text = fs.readFileSync('compose.yaml', 'utf8')
    assert.match(text, /^ {2}postgres:\n {4}image: postgres:/m)
    assert.match(text, /^ {2}redis:\n {4}image: redis:/m)
  })
})

describe('Dockerfile', () => {
  it('starts the server with the start command of docs/operations.md, the one npm start runs', () => {
    const cmd = [...dockerfile.matchAll(/^CMD (\[.*\])$/gm)].at(-1)
    assert.ok(cmd, 'a CMD in exec form')
    const command = (JSON.parse(cmd[1]!) as string[]).join(' ')
    assert.equal(command, pkg.scripts.start, 'the Dockerfile starts what npm start starts')
    assert.ok(operations.includes(`\`npm start\` runs \`${command}\``), 'docs/operations.md names the same command')
  })

  it('is built as docs/operations.md says: slim Node 20, non-root, jemalloc, a health check, DATA_DIR a volume', () => {
    assert.match(dockerfile, /^FROM node:20-bookworm-slim\b/m)
    assert.match(dockerfile, /libjemalloc2/)
    assert.match(dockerfile, /^USER node$/m)
    assert.match(dockerfile, /^HEALTHCHECK [^\n]*\\\n[^\n]*\/healthz/m)
    const dataDir = /^ENV DATA_DIR=(\S+)/m.exec(dockerfile)?.[1]
    assert.ok(dataDir)
    assert.match(dockerfile, new RegExp(`^VOLUME \\["${dataDir}"\\]$`, 'm'))
    const envNames = [...dockerfile.matchAll(/^(?:ENV |\s{4})([A-Z_]+)=/gm)].map((m) => m[1]!)
    assert.deepEqual(envNames.filter((n) => !(SETTING_NAMES as readonly string[]).includes(n)), [])
  })
})

describe('npm start (scripts/start.mjs)', () => {
  it('runs the built server, under jemalloc where libjemalloc2 is installed, and says so', async () => {
    const dataDir = tempDir('uma-start-')
    dirs.push(dataDir)
    const port = await freePort()
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let output = ''
    child.stdout.on('data', (d) => { output += d })
    child.stderr.on('data', (d) => { output += d })
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    try {
      await until(() => /ready: docs at/.test(output) || child.exitCode !== null, 60_000)
      assert.equal((await request(`http://127.0.0.1:${port}/healthz`)).status, 200)
      const lib = findJemalloc()
      // Debian's package is installed on our machines and in CI (scripts/install-system-packages.sh).
      assert.ok(lib, 'libjemalloc2 is installed here')
      assert.match(output, new RegExp(`^Starting the Utility Media API; allocator: jemalloc \\(${lib}\\); libuv thread pool: \\d+ threads`, 'm'))
      assert.match(output, /"allocator":"jemalloc"/, 'the server itself runs on jemalloc')
    } finally {
      child.kill('SIGTERM')
      assert.equal(await exited, 0, 'SIGTERM reaches the server through the launcher: a clean exit')
    }
  })
})
