// Preloaded into a process a test starts (node --import ./test/system/hostile/peak-rss.mjs …):
// writes the process's peak resident set size, in bytes, to PEAK_RSS_FILE when it exits,
// so a test can bound the memory of a whole run.
import fs from 'node:fs'

const file = process.env.PEAK_RSS_FILE
if (file !== undefined && file !== '') {
  // resourceUsage().maxRSS is in kilobytes.
  process.on('exit', () => fs.writeFileSync(file, String(process.resourceUsage().maxRSS * 1024)))
}
