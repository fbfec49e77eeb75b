// The operators' command line, run the two ways the tests need: the built CLI as a
// process (dist/cli/index.js, as `npm run cli` runs it), and runCli in this process
// (src/cli/main.ts), for the suites that pass it a database of their own. Both answer
// the same shape: the exit code and what went to stdout and stderr, one line per
// printed line.
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { runCli } from '../../src/cli/main.js'

export interface CliResult {
  code: number | null
  out: string
  err: string
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

/**
 * The built CLI on `dataDir`, its logs silenced; `env` adds settings. With --create-store
 * (the tests' data directories start empty, as a new install's): a test of the refusal
 * without it runs the CLI itself (test/system/process/cli.test.ts).
 */
export function runBuiltCli (dataDir: string, args: string[], env: Record<string, string> = {}): CliResult {
  const r = spawnSync(process.execPath, [path.join(root, 'dist', 'cli', 'index.js'), ...args, '--create-store'], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 60_000
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

/** runCli in this process with exactly `env` as its environment (and --create-store, as runBuiltCli). */
export async function runCliInProcess (argv: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli([...argv, '--create-store'], env, { out: (s) => out.push(`${s}\n`), err: (s) => err.push(`${s}\n`), interactive: false })
  return { code, out: out.join(''), err: err.join('') }
}

/** The last line that is not empty: where `keys create` prints the new key. */
export function lastLine (text: string): string {
  return text.split('\n').filter((line) => line !== '').at(-1) ?? ''
}
