// Settings from a .env file, read at start by the server and the CLI before the
// configuration is loaded, with Node's own loader (process.loadEnvFile, Node 20.12+).
// Variables already set in the environment win over the file's: a container's or a
// unit file's settings are not overridden by a file left in the working directory.
import fs from 'node:fs'
import path from 'node:path'
import { ConfigError } from './config.js'

export const DEFAULT_ENV_FILE = '.env'

/**
 * Loads ENV_FILE (default ./.env) into process.env. Returns the file read, or undefined
 * when no .env exists. A file named by ENV_FILE must exist; one that does not parse or
 * cannot be read stops the start, naming the variable.
 */
export function loadEnvFile (env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string | undefined {
  const named = env.ENV_FILE?.trim()
  const file = path.resolve(cwd, named || DEFAULT_ENV_FILE)
  if (!named && !fs.existsSync(file)) return undefined
  try {
    process.loadEnvFile(file)
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read: ${(err as Error).message}`
    throw new ConfigError('ENV_FILE', `names ${file}, which ${reason}`)
  }
  return file
}
