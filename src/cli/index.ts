// Entry point of `npm run cli`.
import { runCli } from './main.js'

const code = await runCli(process.argv.slice(2), process.env, {
  out: (text) => process.stdout.write(text + '\n'),
  err: (text) => process.stderr.write(text + '\n'),
  interactive: process.stderr.isTTY === true
})
process.exitCode = code
