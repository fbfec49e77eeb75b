// What every CLI command gets: the configuration, the store (opened on first use),
// and the two output streams. Commands return an exit code; they never call exit.
import type { Config } from '../config.js'
import { openStore } from '../store/index.js'
import type { Store } from '../store/interface.js'

export interface CliIo {
  out: (text: string) => void
  err: (text: string) => void
  /** True when stderr is a terminal: progress may redraw one line. */
  interactive: boolean
  /** Redraws the progress line on a terminal (stderr); undefined ends it with a newline. */
  redraw?: (line: string | undefined) => void
}

export interface CliContext extends CliIo {
  config: Config
  store: () => Promise<Store>
}

/** A mistake in how the command was called: printed with a pointer to --help, exit 2. */
export class UsageError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

export interface CommandGroup {
  name: string
  summary: string
  /** Printed for `group`, `group --help` and `group <command> --help` (src/cli/main.ts). */
  help: string
  /** Runs a command; `args` starts with the command name, help requests never reach it. */
  run (args: string[], ctx: CliContext): Promise<number>
}

/**
 * `create`: open (and migrate) a store that does not exist yet, as the server's first start
 * does; only with --create-store. Without it a missing database is refused (exit 66) and
 * nothing is created: a command pointed at the wrong DATA_DIR must not make a store the
 * server will never read (issue 39 item 6).
 */
export function createCliContext (config: Config, io: CliIo, options: { create: boolean } = { create: false }): CliContext & { close (): Promise<void> } {
  let store: Promise<Store> | undefined
  return {
    ...io,
    config,
    store: () => (store ??= openStore(config, { create: options.create })),
    // A store that failed to open was reported by the command's failure: nothing to close.
    async close () { if (store) await (await store.catch(() => undefined))?.close() }
  }
}
