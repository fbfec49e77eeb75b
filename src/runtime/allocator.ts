// Which malloc the process runs on, for the start line: jemalloc when preloaded (npm
// start does so where Debian's libjemalloc2 is installed), else the system's.
import fs from 'node:fs'

export function runningAllocator (): 'jemalloc' | 'system' {
  try {
    return fs.readFileSync('/proc/self/maps', 'utf8').includes('libjemalloc') ? 'jemalloc' : 'system'
  } catch {
    return 'system' // not Linux
  }
}
