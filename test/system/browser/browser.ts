// Debian's chromium driven by playwright-core, for tests of what users see in a browser.
// CI installs chromium (scripts/install-system-packages.sh): a missing browser fails the
// test loudly rather than skipping it.
import fs from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * Launches chromium; `hosts` are names resolved to 127.0.0.1 inside the browser only,
 * so a page can be loaded through a host name other than localhost without touching
 * the machine's resolver (and nothing leaves loopback).
 */
export async function launchBrowser (hosts: string[] = []): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`chromium is not installed at ${CHROMIUM_PATH}: run scripts/install-system-packages.sh (or set CHROMIUM_PATH)`)
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync',
      ...(hosts.length > 0 ? [`--host-resolver-rules=${hosts.map((h) => `MAP ${h} 127.0.0.1`).join(', ')}, EXCLUDE localhost`] : [])
    ]
  })
}
