// Which better-sqlite3 this runtime loads. Up to 12 it subclasses node::ObjectWrap, and
// Node 24.19+ changed that class (nodejs/node#65446): a statement collected after its
// environment is gone (a worker thread's end, the process's exit) aborts the process
// (`Assertion failed: (env) != nullptr`, WiseLibs/better-sqlite3#1515). 13 moved to
// Node-API and ships its binaries inside the registry package, so one install serves
// every Node from 22 on, but it requires Node 22 and crashes on Node 20. Both are
// installed (13 under the alias better-sqlite3-13) and each Node loads the one it runs:
// one node_modules serves a Node 20 run and a Node 24 run side by side, with nothing
// built for Node 24's ABI. Measured against node:sqlite: bench/sqlite-drivers.bench.ts,
// figures in docs/dependencies.md.
import { createRequire } from 'node:module'
import type BetterSqlite3 from 'better-sqlite3'

/** The first Node major that loads better-sqlite3 13 (its `engines`). */
export const NODE_API_DRIVER_FROM_MAJOR = 22

export function sqliteDriverName (nodeVersion: string = process.versions.node): 'better-sqlite3' | 'better-sqlite3-13' {
  return Number(nodeVersion.split('.')[0]) >= NODE_API_DRIVER_FROM_MAJOR ? 'better-sqlite3-13' : 'better-sqlite3'
}

const require = createRequire(import.meta.url)

/** better-sqlite3's Database class, from the package this Node can run (same API in 12 and 13). */
export const Database = require(sqliteDriverName()) as typeof BetterSqlite3
