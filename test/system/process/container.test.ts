// The container files agree with the code (no Docker engine runs here): the compose
// file sets only settings the server reads, with values it accepts; the Dockerfile
// starts the server the way docs/operations.md and `npm start` do. And the start command itself:
// it runs the built server under jemalloc where Debian's libjemalloc2 is installed.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import { after, describe, it } from 'node:test'
import { loadConfig, SETTING_NAMES } from '../../../src/config.js'
import { findJemalloc } from '../../../scripts/allocator.mjs'
import { endOfLifeNotice, EXTRA_NODE_VERSIONS, installedNode } from '../../../scripts/node-lts.mjs'
import { tempDir } from '../../support/helpers.js'
import { freePort, request, until } from '../../support/processes.js'

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

  it('copies into its build stage every file and folder npm run build reads, before it runs it', () => {
    // npm run build: the TypeScript (tsconfig.build.json, which extends tsconfig.json, over
    // src/), then the browser pages (scripts/build-web.mjs over web/). The build stage had
    // no scripts/ or web/, so an image could not be built (no Docker engine runs here).
    const buildStage = dockerfile.slice(0, dockerfile.indexOf('RUN npm run build'))
    assert.ok(buildStage.length > 0 && buildStage.length < dockerfile.length, 'the build stage runs npm run build')
    const copied = [...buildStage.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1]!.split(/\s+/))
    assert.match(pkg.scripts.build ?? '', /tsc -p tsconfig\.build\.json && node scripts\/build-web\.mjs/, 'the build is still what this test knows')
    for (const needed of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'src', 'scripts', 'web']) {
      assert.ok(copied.includes(needed), `${needed} is copied before npm run build (copied: ${copied.join(', ')})`)
    }
  })

  it('is built on a Node LTS line the test suite runs on (scripts/node-lts.mjs), both stages alike', () => {
    const majors = [...dockerfile.matchAll(/^FROM node:(\d+)-bookworm-slim\b/gm)].map((m) => m[1]!)
    assert.equal(majors.length, 2, 'two stages, each FROM node:<major>-bookworm-slim')
    assert.equal(new Set(majors).size, 1, `both stages on one Node: ${majors.join(', ')}`)
    assert.ok(Object.keys(EXTRA_NODE_VERSIONS).includes(majors[0]!), `Node ${majors[0]} in the Dockerfile; the suite runs on ${Object.keys(EXTRA_NODE_VERSIONS).join(', ')} beside the machine's own`)
    assert.ok(operations.includes(`node:${majors[0]}-bookworm-slim`), 'docs/operations.md names the same base image')
  })

  it('is built as docs/operations.md says: slim Node, non-root, jemalloc, a health check, DATA_DIR a volume', () => {
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

/** Runs scripts/start.mjs on `node` until the server is ready; its output and how it ended after SIGTERM. */
async function startCommand (node: string, check: (output: string, port: number) => Promise<void>): Promise<void> {
  const dataDir = tempDir('uma-start-')
  dirs.push(dataDir)
  const port = await freePort()
  const child = spawn(node, ['scripts/start.mjs'], {
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
    await check(output, port)
  } finally {
    child.kill('SIGTERM')
    assert.equal(await exited, 0, 'SIGTERM reaches the server through the launcher: a clean exit')
  }
}

const endOfLifeLines = (output: string): string[] => output.split('\n').filter((l) => l.includes('end of life'))

describe('npm start (scripts/start.mjs)', () => {
  it('runs the built server, under jemalloc where libjemalloc2 is installed, and says so', async () => {
    await startCommand(process.execPath, async (output) => {
      const lib = findJemalloc()
      // Debian's package is installed on our machines and in CI (scripts/install-system-packages.sh).
      assert.ok(lib, 'libjemalloc2 is installed here')
      assert.match(output, new RegExp(`^Starting the Utility Media API; allocator: jemalloc \\(${lib}\\); libuv thread pool: \\d+ threads`, 'm'))
      assert.match(output, /"allocator":"jemalloc"/, 'the server itself runs on jemalloc')
      // Node 20 (the development machines') ended in April 2026: one line says so, and the server runs.
      if (process.versions.node.startsWith('20.')) {
        assert.deepEqual(endOfLifeLines(output), [`Node ${process.versions.node} is past its end of life (April 2026): it gets no security fixes; use Node 24 LTS (docs/operations.md, "Which Node").`])
      }
    })
  })

  const node24 = installedNode(EXTRA_NODE_VERSIONS[24]!)
  it('runs on Node 24 LTS with no end-of-life line', { skip: node24 ? false : 'Node 24 not installed (npm test installs it: scripts/node-lts.mjs)' }, async () => {
    await startCommand(node24!, async (output) => {
      assert.deepEqual(endOfLifeLines(output), [])
      assert.match(output, /^Starting the Utility Media API; /m)
    })
  })

  it('names the end of life of a line only once it has passed (an injected date)', () => {
    assert.equal(endOfLifeNotice('20.19.0', new Date('2026-04-30T23:00:00Z')), undefined, 'the last day of support')
    assert.equal(endOfLifeNotice('20.19.0', new Date('2026-05-01T00:00:00Z')), 'Node 20.19.0 is past its end of life (April 2026): it gets no security fixes; use Node 24 LTS (docs/operations.md, "Which Node").')
    assert.equal(endOfLifeNotice('24.21.0', new Date('2026-11-28T00:00:00Z')), undefined)
    assert.match(endOfLifeNotice('24.21.0', new Date('2028-05-01T00:00:00Z')) ?? '', /^Node 24\.21\.0 is past its end of life \(April 2028\)/)
    assert.equal(endOfLifeNotice('25.1.0', new Date('2030-01-01T00:00:00Z')), undefined, 'a line the table does not know')
  })
})
