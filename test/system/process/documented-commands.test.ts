// Every shell command of README.md and docs/*.md is run here, for real, against the built
// server: a page whose commands drift from the code fails the suite (issue 26).
//
// Conventions (also for writers, in docs/development.md, "Commands in the docs"):
// - Fenced blocks whose language is sh, bash, shell or console are run (console: only the
//   lines starting with "$ "). Each page runs on a fresh install (a copy of a data folder
//   the built server filled on its first start), its blocks in order, with the built
//   server running on it. Every fence names its language, so no command hides in a bare
//   block.
// - A block that cannot run here has `<!-- not run: reason -->` on the line before it.
//   Such blocks are still parsed (bash -n), and the npm scripts and repository files they
//   name must exist.
// - What a reader has, the test puts in place: `localhost:3000` (with or without
//   http://) is the test server; $KEY the key its first start printed, as the README
//   says (the README's excerpt of that message is checked too); $DATA_DIR its data folder;
//   /backups/ a temporary folder; `npm run cli -- ARGS` runs `node dist/cli/index.js ARGS`
//   (what the cli script runs once scripts/prepare.mjs finds nothing to do: checked
//   below); the files commands read (makeFixtures) are in the working directory.
// - curl fails on an HTTP error status (--fail-with-body), so a 4xx or 5xx answer fails.
// Blocks in other languages are not run; the nginx server block, the systemd unit and
// its settings file in docs/operations.md are read and checked for what the page says
// they do.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import GithubSlugger from 'github-slugger'
import sharp, { type Sharp } from 'sharp'
import { loadConfig, SETTING_NAMES } from '../../../src/config.js'
import { MAX_IMAGE_BYTES } from '../../../src/conversion/image/upload.js'
import { CUSTOM_BODY_LIMIT } from '../../../src/generation/custom/custom-limits.js'
import { EXIT_STORE_UNAVAILABLE } from '../../../src/store/interface.js'
import { EXIT_CONFIG, EXIT_DATABASE_MISSING, EXIT_DATABASE_UNREADABLE } from '../../../src/store/sqlite/database-file.js'
import { tempDir } from '../../support/helpers.js'
import { startServerProcess } from '../../support/processes.js'

const ROOT = process.cwd()
const PAGES = ['README.md', ...fs.readdirSync('docs').filter((f) => f.endsWith('.md')).sort().map((f) => path.join('docs', f))]
const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell', 'console'])
const NOT_RUN = /^<!-- not run: (.*\S.*) -->$/
/** Time one command of a page may take (a CLI start, a picture drawn and converted). */
const BLOCK_TIMEOUT_MS = 30_000

interface Block {
  page: string
  /** 1-based line of the opening fence. */
  line: number
  language: string
  text: string
  /** Why the block is not run, when its page says so. */
  notRun?: string
}

function blocksOf (page: string): { blocks: Block[], problems: string[] } {
  const lines = fs.readFileSync(page, 'utf8').split('\n')
  const blocks: Block[] = []
  const problems: string[] = []
  let open: { fence: string, line: number, language: string, body: string[], notRun?: string } | undefined
  lines.forEach((line, i) => {
    if (open) {
      if (line.trimEnd() === open.fence) {
        blocks.push({ page, line: open.line, language: open.language, text: open.body.join('\n') + '\n', ...(open.notRun !== undefined && { notRun: open.notRun }) })
        open = undefined
      } else open.body.push(line)
      return
    }
    const fence = /^(```+|~~~+)\s*(\S*)/.exec(line)
    const marker = NOT_RUN.exec(lines[i - 1]?.trim() ?? '')
    if (fence) {
      const language = fence[2]!.toLowerCase()
      if (language === '') problems.push(`${page}:${i + 1}: a fence without a language (\`\`\`text for output, \`\`\`sh for commands)`)
      open = { fence: fence[1]!, line: i + 1, language, body: [], ...(marker && { notRun: marker[1] }) }
    } else if (marker) {
      problems.push(`${page}:${i}: "<!-- not run -->" must stand on the line right before a fenced block`)
    } else if (/^\s*<!--\s*not[ -]run/i.test(line) && !NOT_RUN.test(line.trim())) {
      problems.push(`${page}:${i + 1}: write the marker as "<!-- not run: reason -->"`)
    }
  })
  if (open) problems.push(`${page}:${open.line}: a fence never closed`)
  for (const b of blocks) {
    if (b.notRun !== undefined && !SHELL_LANGUAGES.has(b.language)) problems.push(`${page}:${b.line}: "not run" on a ${b.language} block, which is never run`)
  }
  return { blocks, problems }
}

const parsed = PAGES.map(blocksOf)
const allBlocks = parsed.flatMap((p) => p.blocks)
const shellBlocks = allBlocks.filter((b) => SHELL_LANGUAGES.has(b.language))

/** The commands of a block as bash reads them (console: the "$ " lines only). */
function script (block: Block): string {
  if (block.language !== 'console') return block.text
  return block.text.split('\n').filter((l) => l.startsWith('$ ')).map((l) => l.slice(2)).join('\n') + '\n'
}

function where (block: Block): string {
  return `${block.page}:${block.line}`
}

/** The settings a developer's shell may hold, kept away from the commands (they would change what runs). */
function cleanEnv (): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !(SETTING_NAMES as readonly string[]).includes(name)) env[name] = value
  }
  return env
}

// The shell the blocks run in: curl fails on an HTTP error, `npm run cli --` is the built
// CLI, any other npm or npx command is refused (a block running one must say why it is
// not run; npx would even offer to download a package of that name).
const PRELUDE = `set -euo pipefail
curl () { command curl --silent --show-error --fail-with-body "$@"; }
npm () {
  if [ "\${1-}" = run ] && [ "\${2-}" = cli ] && [ "\${3-}" = -- ]; then shift 3; node "$UMA_ROOT/dist/cli/index.js" "$@"; return; fi
  echo "npm $*: not run by documented-commands.test.ts; mark the block <!-- not run: reason -->" >&2
  return 127
}
npx () { echo "npx $*: not run by documented-commands.test.ts; mark the block <!-- not run: reason -->" >&2; return 127; }
# Each command on stderr as it runs, expanded: on a failure the last one is the culprit.
set -x
`

describe('the fenced blocks of README.md and docs/*.md', () => {
  it('each names its language, and each "not run" marker stands before a shell block with a reason', () => {
    assert.deepEqual(parsed.flatMap((p) => p.problems), [])
    assert.ok(shellBlocks.length >= 15, `only ${shellBlocks.length} shell blocks found`)
  })

  it('the README keeps its two commands, npm start and npm test, which exist', () => {
    const readme = allBlocks.filter((b) => b.page === 'README.md' && SHELL_LANGUAGES.has(b.language))
    const commands = readme[0]!.text.split('\n').map((l) => l.replace(/#.*/, '').trim()).filter(Boolean)
    assert.deepEqual(commands, ['npm start', 'npm test'], 'the first block of the README')
    const scripts = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts
    assert.ok(scripts.start && scripts.test)
    // What this test runs in place of `npm run cli --`.
    assert.equal(scripts.cli, 'node scripts/prepare.mjs && node dist/cli/index.js')
  })

  it('every relative link points at a file that exists, and at a heading of it that exists', () => {
    const withoutBlocks = (file: string): string => fs.readFileSync(file, 'utf8').replace(/^(```+|~~~+).*\n[\s\S]*?^\1\s*$/gm, '')
    // GitHub's anchors: the slugs of the headings, in order (a repeated one gets -1, -2, ...).
    const headings = (file: string): Set<string> => {
      const slugger = new GithubSlugger()
      return new Set(withoutBlocks(file).split('\n').filter((l) => /^#{1,6} /.test(l)).map((l) => slugger.slug(l.replace(/^#+ /, ''))))
    }
    const broken: string[] = []
    for (const page of PAGES) {
      for (const m of withoutBlocks(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(m[1]!)) continue
        const [file, anchor] = m[1]!.split('#')
        const target = file ? path.join(path.dirname(page), file) : page
        if (!fs.existsSync(target)) broken.push(`${page}: ${m[1]} (no such file)`)
        else if (anchor && target.endsWith('.md') && !headings(target).has(anchor)) broken.push(`${page}: ${m[1]} (no such heading)`)
      }
    }
    assert.deepEqual(broken, [])
  })

  it('every shell block parses, and the npm scripts and files of blocks not run exist', () => {
    const scripts = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts
    for (const block of shellBlocks) {
      const r = spawnSync('bash', ['-n'], { input: script(block), encoding: 'utf8' })
      assert.equal(r.status, 0, `${where(block)}: bash -n: ${r.stderr}`)
      if (block.notRun === undefined) continue
      for (const m of block.text.matchAll(/\bnpm run ([\w:-]+)/g)) {
        assert.ok(scripts[m[1]!], `${where(block)}: npm run ${m[1]}: no such script in package.json`)
      }
      for (const m of block.text.matchAll(/(?<=^|\s)((?:scripts|test|src|bench)\/[\w./-]+\.(?:ts|mjs|js|sh))\b/gm)) {
        assert.ok(fs.existsSync(m[1]!), `${where(block)}: ${m[1]} does not exist`)
      }
    }
  })
})

/**
 * The files the documented commands read, made in each page's working directory:
 * photo.jpg, photo.png, my-gifs/<type>/*.gif (a folder to import), waving-cat.gif.
 */
async function makeFixtures (dir: string): Promise<void> {
  const picture = (r: number, g: number, b: number): Sharp =>
    sharp({ create: { width: 64, height: 48, channels: 3, background: { r, g, b } } })
  await picture(200, 40, 40).jpeg().toFile(path.join(dir, 'photo.jpg'))
  await picture(40, 200, 40).png().toFile(path.join(dir, 'photo.png'))
  const gifs: Array<[string, number]> = [['my-gifs/hug/hug-1.gif', 10], ['my-gifs/hug/hug-2.gif', 60], ['my-gifs/pat/pat-1.gif', 110], ['waving-cat.gif', 160]]
  for (const [file, shade] of gifs) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    await picture(shade, 255 - shade, 128).gif().toFile(path.join(dir, file))
  }
}

// Pages side by side (each its own server and folders): a CLI start is mostly waiting.
describe('the shell blocks, run against the built server', { concurrency: 3 }, () => {
  const work = tempDir('uma-doc-commands-')
  const template = path.join(work, 'fresh-install')
  after(() => fs.rmSync(work, { recursive: true, force: true }))
  let key = ''
  let firstStart = { output: '', port: 0 }

  before(async () => {
    // A fresh install: what the first start leaves in DATA_DIR (database, starter gifs,
    // the operator's key, printed once).
    const first = await startServerProcess({ DATA_DIR: template, LOG_LEVEL: 'warn' })
    assert.equal(await first.stop(), 0, first.output())
    firstStart = { output: first.output(), port: first.port }
    key = /"Authorization: (um_\S+)"/.exec(firstStart.output)?.[1] ?? ''
  })

  it('the first start prints a key, as the README\'s excerpt of its message shows', () => {
    assert.ok(key, firstStart.output)
    const excerpt = allBlocks.find((b) => b.page === 'README.md' && b.text.includes('No API key existed'))
    assert.ok(excerpt, 'the README shows the first start\'s message')
    const printed = firstStart.output.split('\n').map((l) => l.trim())
    for (const line of excerpt.text.split('\n').map((l) => l.trim()).filter(Boolean)) {
      const expected = line.replace('um_…', key).replace('localhost:3000', `127.0.0.1:${firstStart.port}`)
      assert.ok(printed.includes(expected), `the first start prints "${expected}":\n${firstStart.output}`)
    }
  })

  const pages = PAGES.filter((page) => shellBlocks.some((b) => b.page === page && b.notRun === undefined))

  it('runs some pages (the README first)', () => {
    assert.equal(pages[0], 'README.md')
    assert.ok(pages.length >= 5, `pages with commands run: ${pages.join(', ')}`)
  })

  for (const page of pages) {
    it(`${page}: every command succeeds, in order, on a fresh install`, async () => {
      const dir = path.join(work, page.replace(/\W+/g, '-'))
      const cwd = path.join(dir, 'cwd')
      const dataDir = path.join(dir, 'data')
      const backups = path.join(dir, 'backups')
      fs.mkdirSync(cwd, { recursive: true })
      fs.mkdirSync(backups)
      fs.cpSync(template, dataDir, { recursive: true })
      await makeFixtures(cwd)
      const server = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' })
      try {
        assert.ok(key, 'the first start printed a key')
        const env = { ...cleanEnv(), KEY: key, DATA_DIR: dataDir, UMA_ROOT: ROOT }
        for (const block of shellBlocks.filter((b) => b.page === page && b.notRun === undefined)) {
          const commands = script(block)
            .replaceAll('localhost:3000', `127.0.0.1:${server.port}`)
            .replace(/(^|[\s"'=])\/backups\//gm, `$1${backups}/`)
          const r = spawnSync('bash', ['-c', PRELUDE + commands], { cwd, env, encoding: 'utf8', timeout: BLOCK_TIMEOUT_MS })
          assert.equal(r.status, 0, `${where(block)} (exit ${r.status ?? r.signal}):\n${r.stderr.slice(-3000)}\n${r.stdout.slice(-2000)}\n--- server ---\n${server.output().slice(-2000)}`)
        }
      } finally {
        await server.stop()
      }
    })
  }
})

/** The body of the block of `language` in docs/operations.md whose first line names `file`. */
function operationsBlock (language: string, file: string): string {
  const block = allBlocks.find((b) => b.page === path.join('docs', 'operations.md') && b.language === language && b.text.startsWith(`# ${file}`))
  assert.ok(block, `a ${language} block starting "# ${file}" in docs/operations.md`)
  return block.text
}

interface Directive { context: string, name: string, args: string[] }

/** nginx configuration read as directives with the blocks they stand in (server/location). */
function nginxDirectives (text: string): Directive[] {
  const tokens = text.replace(/#[^\n]*/g, '').match(/"[^"]*"|[{};]|[^\s{};]+/g) ?? []
  const directives: Directive[] = []
  const stack: string[] = []
  let words: string[] = []
  for (const token of tokens) {
    if (token === ';' || token === '{') {
      const [name, ...args] = words
      assert.ok(name, `a ${token} without a directive`)
      if (token === ';') directives.push({ context: stack.join('/'), name, args })
      else stack.push(name)
      words = []
    } else if (token === '}') {
      assert.equal(words.length, 0, `"${words.join(' ')}" before } lacks its ;`)
      assert.ok(stack.pop(), 'an unbalanced }')
    } else words.push(token.replace(/^"(.*)"$/, '$1'))
  }
  assert.equal(stack.length, 0, 'every { is closed')
  assert.equal(words.length, 0, `"${words.join(' ')}" lacks its ;`)
  return directives
}

function nginxSize (value: string): number {
  const m = /^(\d+)([kKmMgG]?)$/.exec(value)
  assert.ok(m, `a size: ${value}`)
  return Number(m[1]) * ({ '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 } as Record<string, number>)[m[2]!.toLowerCase()]!
}

function nginxSeconds (value: string): number {
  const m = /^(\d+)(ms|s|m)?$/.exec(value)
  assert.ok(m, `a time: ${value}`)
  return Number(m[1]) * ({ ms: 0.001, s: 1, m: 60 } as Record<string, number>)[m[2] ?? 's']!
}

/** A systemd unit file read as section → key → values (a key may repeat). */
function unitFile (text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>()
  let current: Map<string, string[]> | undefined
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue
    const section = /^\[(\w+)\]$/.exec(line)
    if (section) { current = new Map(); sections.set(section[1]!, current); continue }
    const m = /^([A-Za-z]+)=(.*)$/.exec(line)
    assert.ok(m && current, `a Key=value line inside a section: ${line}`)
    current.set(m[1]!, [...(current.get(m[1]!) ?? []), m[2]!])
  }
  return sections
}

describe('docs/operations.md: the nginx server block', () => {
  const directives = nginxDirectives(operationsBlock('nginx', '/etc/nginx/sites-available/utility-media-api'))
  const one = (context: string, name: string): string[] => {
    const found = directives.filter((d) => d.context === context && d.name === name)
    assert.equal(found.length, 1, `one ${name} in ${context || 'the top level'}`)
    return found[0]!.args
  }
  const defaults = loadConfig({})

  it('passes to the server on its default port, through an upstream whose idle connections close before the server closes them', () => {
    const upstreams = directives.filter((d) => d.context.startsWith('upstream'))
    assert.ok(upstreams.some((d) => d.name === 'server' && d.args[0] === `127.0.0.1:${defaults.port}`), 'upstream server 127.0.0.1:PORT')
    const keepalive = upstreams.find((d) => d.name === 'keepalive_timeout')
    assert.ok(keepalive && nginxSeconds(keepalive.args[0]!) * 1000 < defaults.keepAliveTimeoutMs, 'upstream keepalive_timeout below KEEP_ALIVE_TIMEOUT_MS')
    const pass = one('server/location', 'proxy_pass')
    assert.match(pass[0]!, /^http:\/\/utility_media_api$/)
    assert.deepEqual(one('server/location', 'proxy_http_version'), ['1.1'], 'HTTP/1.1 to the upstream, for keep-alive')
  })

  it('sets the headers the server reads behind a proxy, X-Forwarded-For set rather than appended', () => {
    const headers = new Map(directives.filter((d) => d.name === 'proxy_set_header').map((d) => [d.args[0]!.toLowerCase(), d.args[1]]))
    assert.equal(headers.get('x-forwarded-for'), '$remote_addr')
    assert.equal(headers.get('host'), '$host')
    assert.equal(headers.get('x-forwarded-proto'), '$scheme')
    assert.equal(headers.get('connection'), '', 'no "Connection: close" to the upstream')
  })

  it('lets the largest body through, and waits longer than the request deadline', () => {
    const bodies = directives.filter((d) => d.name === 'client_max_body_size')
    assert.equal(bodies.length, 1)
    const max = nginxSize(bodies[0]!.args[0]!)
    for (const [what, limit] of [['an image to convert', MAX_IMAGE_BYTES], ['/gen/custom', CUSTOM_BODY_LIMIT], ['TEXT_BODY_LIMIT', defaults.textBodyLimit], ['BODY_LIMIT', defaults.bodyLimit]] as const) {
      assert.ok(max >= limit, `client_max_body_size ${bodies[0]!.args[0]} holds ${what} (${limit} bytes)`)
    }
    assert.ok(max - MAX_IMAGE_BYTES >= 64 * 1024, 'room for the multipart framing of the largest image')
    for (const name of ['proxy_read_timeout', 'proxy_send_timeout']) {
      assert.ok(nginxSeconds(one('server/location', name)[0]!) * 1000 > defaults.requestTimeoutMs, `${name} above REQUEST_TIMEOUT_MS`)
    }
  })
})

describe('docs/operations.md: the systemd unit and its settings', () => {
  const unit = unitFile(operationsBlock('ini', '/etc/systemd/system/utility-media-api.service'))
  const service = unit.get('Service')
  const value = (key: string): string => {
    const values = service?.get(key)
    assert.equal(values?.length, 1, `one ${key}= in [Service]`)
    return values![0]!
  }
  const defaults = loadConfig({})

  it('has the three sections, and starts what npm start starts', () => {
    assert.deepEqual([...unit.keys()], ['Unit', 'Service', 'Install'])
    const start = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts.start!
    assert.equal(start, 'node scripts/start.mjs')
    assert.match(value('ExecStart'), /^\/\S*\/node scripts\/start\.mjs$/, 'ExecStart runs scripts/start.mjs with an absolute node')
    assert.ok(value('WorkingDirectory').startsWith('/'))
    assert.deepEqual(unit.get('Install')?.get('WantedBy'), ['multi-user.target'])
  })

  it('stops with SIGTERM, waits longer than SHUTDOWN_TIMEOUT_MS, restarts on failure but not on 65, 66 or 78', () => {
    assert.equal(value('KillSignal'), 'SIGTERM')
    assert.equal(value('KillMode'), 'mixed', 'SIGTERM to scripts/start.mjs alone, which passes it on')
    assert.ok(Number(value('TimeoutStopSec')) * 1000 > defaults.shutdownTimeoutMs, 'TimeoutStopSec above SHUTDOWN_TIMEOUT_MS')
    assert.equal(value('Restart'), 'on-failure')
    const prevented = value('RestartPreventExitStatus').split(/\s+/).map(Number)
    assert.deepEqual(prevented.sort(), [EXIT_DATABASE_UNREADABLE, EXIT_DATABASE_MISSING, EXIT_CONFIG].sort())
    assert.ok(!prevented.includes(EXIT_STORE_UNAVAILABLE), 'PostgreSQL not answering at start is worth a restart')
  })

  it('reads its settings from the file the page shows, which the server accepts', () => {
    const file = value('EnvironmentFile')
    const text = operationsBlock('ini', file)
    const settings = Object.fromEntries(text.split('\n').filter((l) => /^[A-Z]/.test(l)).map((l) => l.split(/=(.*)/s).slice(0, 2) as [string, string]))
    assert.deepEqual(Object.keys(settings).filter((n) => !(SETTING_NAMES as readonly string[]).includes(n)), [], 'only settings the server reads')
    const config = loadConfig(settings)
    assert.deepEqual(config.trustProxy, ['127.0.0.1'], 'TRUST_PROXY names nginx, which connects from 127.0.0.1')
    assert.equal(config.host, '127.0.0.1')
    assert.equal(settings.DATA_DIR, `/var/lib/${value('StateDirectory')}`, 'DATA_DIR is the directory systemd makes (StateDirectory)')
  })
})
