// Entry point of `npm run cli`: the same settings as the server, .env included.
import { ConfigError } from '../config.js'
import { loadEnvFile } from '../env-file.js'
import { runCli } from './main.js'

try {
  loadEnvFile()
} catch (err) {
  if (!(err instanceof ConfigError)) throw err
  process.stderr.write(`${err.message}\n`)
  process.exit(78)
}
const code = await runCli(process.argv.slice(2), process.env, {
  out: (text) => process.stdout.write(text + '\n'),
  err: (text) => process.stderr.write(text + '\n'),
  interactive: process.stderr.isTTY === true
})
process.exitCode = code
