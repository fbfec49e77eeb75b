// The one rule for a catalog entry served from elsewhere (`gifs add-url`, a pack's `url`
// entries): the API hands the URL to every client that picks the gif, so it must be an
// http(s) URL that carries no credentials (they would be handed out with it) and does
// not name this network: no loopback, private, link-local or other non-public address
// literal (the ranges of src/remote-fetch/address.ts, in every spelling it reads), and
// no `localhost` name (RFC 6761 §6.3). Host names are not resolved: whoever picks the gif
// resolves them on their own network.
import { classifyAddress, describeRange } from '../remote-fetch/address.js'

export const MAX_EXTERNAL_URL_LENGTH = 2048

/** The URL as the catalog stores it (normalised by the WHATWG parser), or why it is refused. */
export function checkExternalUrl (raw: string): { url: string } | { reason: string } {
  if (raw.length > MAX_EXTERNAL_URL_LENGTH) return { reason: `a URL of ${raw.length} characters (at most ${MAX_EXTERNAL_URL_LENGTH})` }
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return { reason: 'not an absolute URL' }
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { reason: `the scheme "${url.protocol.replace(/:$/, '')}": only http(s) URLs are served` }
  if (url.username !== '' || url.password !== '') return { reason: 'it carries credentials (user:password@), which every client would be given' }
  const host = url.hostname.toLowerCase().replace(/\.$/, '')
  if (host === 'localhost' || host.endsWith('.localhost')) return { reason: `it names "${url.hostname}", this machine` }
  const verdict = classifyAddress(url.hostname)
  if (verdict !== undefined && !verdict.allowed) return { reason: `it points to ${verdict.address}, ${describeRange(verdict.range)}` }
  return { url: url.href }
}
