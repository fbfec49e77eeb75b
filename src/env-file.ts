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

/** Where the settings came from: what a command line says beside the store it uses. */
export interface SettingsOrigin {
  /** The file read (absolute), or undefined when none was. */
  file: string | undefined
  /** True when ENV_FILE named the file; false for the default ./.env. */
  named: boolean
  /** The variables the file set (the environment's own win over it and are not listed). */
  fromFile: ReadonlySet<string>
}

/** loadEnvFile, telling which variables the file set. */
export function loadEnvFileWithOrigin (env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): SettingsOrigin {
  const before = new Set(Object.keys(process.env))
  const file = loadEnvFile(env, cwd)
  return { file, named: Boolean(env.ENV_FILE?.trim()), fromFile: new Set(Object.keys(process.env).filter((k) => !before.has(k))) }
}

/**
 * Where `variable` came from, in words: "DATA_DIR from ENV_FILE /etc/uma.env",
 * "DATA_DIR from the environment; .env /srv/uma/.env read too", "DATA_DIR not set, so the
 * default; no .env file, ENV_FILE not set".
 */
export function describeOrigin (variable: string, env: Record<string, string | undefined>, origin: SettingsOrigin | undefined): string {
  const file = origin?.file === undefined ? undefined : `${origin.named ? 'ENV_FILE' : '.env'} ${origin.file}`
  if (file !== undefined && origin!.fromFile.has(variable)) return `${variable} from ${file}`
  const source = env[variable]?.trim() ? `${variable} from the environment` : `${variable} not set, so the default`
  if (origin === undefined) return source
  return file === undefined ? `${source}; no .env file, ENV_FILE not set` : `${source}; ${file} read too`
}
