// The request the playground sends, written out as code a visitor can copy: a curl
// command and a fetch call. The key never appears in them: they read it from the
// environment ($API_KEY, process.env.API_KEY), so a pasted snippet leaks nothing.
// No DOM here: test/unit/playground/snippets.test.ts runs these in Node.

export interface ApiRequest {
  /** The server's origin, e.g. "https://media.example.com". */
  origin: string
  /** "/gen/welcome", "/gen/custom". */
  path: string
  /** The JSON text sent as the body (the editor's text as typed, for /gen/custom). */
  body: string
  /** The picture's file extension, for curl's output file. */
  extension: string
}

/** A single-quoted shell word: everything literal, quotes closed and reopened around ' . */
export function shellQuote (text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`
}

/** The body as a person would write it: indented JSON when it parses, else as typed. */
function pretty (body: string): { json: boolean, text: string } {
  try {
    return { json: true, text: JSON.stringify(JSON.parse(body), null, 2) }
  } catch {
    return { json: false, text: body }
  }
}

function fileName (r: ApiRequest): string {
  return `${r.path.split('/').pop() || 'image'}.${r.extension}`
}

export function curlSnippet (r: ApiRequest): string {
  return [
    `curl -X POST ${shellQuote(r.origin + r.path)}`,
    '  -H "Authorization: $API_KEY"',
    "  -H 'Content-Type: application/json'",
    `  --data-raw ${shellQuote(pretty(r.body).text)}`,
    `  -o ${fileName(r)}`
  ].join(' \\\n')
}

export function fetchSnippet (r: ApiRequest): string {
  const body = pretty(r.body)
  const bodyCode = body.json ? `JSON.stringify(${body.text.replaceAll('\n', '\n  ')})` : JSON.stringify(body.text)
  return [
    `const response = await fetch(${JSON.stringify(r.origin + r.path)}, {`,
    "  method: 'POST',",
    "  headers: { Authorization: process.env.API_KEY, 'Content-Type': 'application/json' },",
    `  body: ${bodyCode}`,
    '})',
    '// Every failure is a JSON envelope whose message says what to change.',
    'if (!response.ok) throw new Error((await response.json()).message)',
    `const image = new Uint8Array(await response.arrayBuffer()) // ${fileName(r)}`
  ].join('\n')
}
