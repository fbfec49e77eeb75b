// The request as code: the curl command and the fetch call the playground offers send
// exactly the request the page sent, and carry no key.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { describe, it } from 'node:test'
import { type ApiRequest, curlSnippet, fetchSnippet, shellQuote } from '../../../web/playground/snippets.js'

const request: ApiRequest = {
  origin: 'http://127.0.0.1:3000',
  path: '/gen/welcome',
  body: JSON.stringify({ username: "O'Brien \"$HOME\" `id` \\ ü", members: 'Member #1' }),
  extension: 'png'
}

/** Runs a snippet in sh with `curl` replaced by a function printing its arguments, one per line. */
function curlArguments (snippet: string, env: Record<string, string>): string[] {
  const script = `curl () { for a in "$@"; do printf '%s\\0' "$a"; done; }\n${snippet}\n`
  const run = spawnSync('sh', ['-c', script], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' })
  assert.equal(run.status, 0, run.stderr)
  return run.stdout.split('\0').slice(0, -1)
}

describe('the playground\'s snippets', () => {
  it('quotes any text for the shell', () => {
    for (const text of ["it's", '$(id) `id` $HOME', '\\ \n "\'"', '']) {
      assert.deepEqual(curlArguments(`curl ${shellQuote(text)}`, {}), [text])
    }
  })

  it('curl: sends the body as the page did, the key from $API_KEY', () => {
    const args = curlArguments(curlSnippet(request), { API_KEY: 'the-key-from-the-shell' })
    assert.deepEqual(args.slice(0, 7), ['-X', 'POST', 'http://127.0.0.1:3000/gen/welcome', '-H', 'Authorization: the-key-from-the-shell', '-H', 'Content-Type: application/json'])
    assert.equal(args[7], '--data-raw')
    assert.deepEqual(JSON.parse(args[8]!), JSON.parse(request.body))
    assert.deepEqual(args.slice(9), ['-o', 'welcome.png'])
  })

  it('curl: sends a description that is not JSON as typed, for the server to explain', () => {
    const args = curlArguments(curlSnippet({ ...request, path: '/gen/custom', body: '{"base": ', extension: 'jpg' }), { API_KEY: 'k' })
    assert.equal(args[8], '{"base": ')
    assert.deepEqual(args.slice(9), ['-o', 'custom.jpg'])
  })

  it('fetch: runs as written, sending the body as the page did, the key from process.env.API_KEY', async () => {
    const calls: Array<{ url: string, init: { method: string, headers: Record<string, string>, body: string } }> = []
    const fakeFetch = async (url: string, init: any) => {
      calls.push({ url, init })
      return new Response(new Uint8Array([137, 80, 78, 71]), { headers: { 'content-type': 'image/png' } })
    }
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<unknown>
    const run = new AsyncFunction('fetch', 'process', `${fetchSnippet(request)}\nreturn image`)
    const image = await run(fakeFetch, { env: { API_KEY: 'the-key-from-the-environment' } })
    assert.deepEqual(image, new Uint8Array([137, 80, 78, 71]))
    assert.equal(calls.length, 1)
    assert.equal(calls[0]!.url, 'http://127.0.0.1:3000/gen/welcome')
    assert.equal(calls[0]!.init.method, 'POST')
    assert.equal(calls[0]!.init.headers.Authorization, 'the-key-from-the-environment')
    assert.deepEqual(JSON.parse(calls[0]!.init.body), JSON.parse(request.body))
  })
})
