// Entry point of `npm run cli`: the same settings as the server, .env (or ENV_FILE) included.
import { ConfigError } from '../config.js'
import { loadEnvFileWithOrigin, type SettingsOrigin } from '../env-file.js'
import { runCli } from './main.js'

let origin: SettingsOrigin
try {
  origin = loadEnvFileWithOrigin()
} catch (err) {
  if (!(err instanceof ConfigError)) throw err
  process.stderr.write(`${err.message}\n`)
  process.exit(78)
}
// A progress line redrawn on the terminal is cleared before other output, and drawn
// again at its next update.
let progressShown = false
const clearProgress = (): void => {
  if (progressShown) process.stderr.write('\r\x1b[K')
  progressShown = false
}
const code = await runCli(process.argv.slice(2), process.env, {
  out: (text) => { clearProgress(); process.stdout.write(text + '\n') },
  err: (text) => { clearProgress(); process.stderr.write(text + '\n') },
  interactive: process.stderr.isTTY === true,
  redraw: (line) => {
    if (line === undefined) {
      if (progressShown) process.stderr.write('\n')
      progressShown = false
      return
    }
    process.stderr.write(`\r${line}\x1b[K`)
    progressShown = true
  }
}, origin)
process.exitCode = code
