// The real process: start on embedded defaults, serve, and close gracefully on SIGTERM
// while a request is still arriving.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import { after, describe, it } from 'node:test'
import { tempDir } from '../../support/helpers.js'
import { startServerProcess, until } from '../../support/processes.js'

async function startServer (env: Record<string, string> = {}) {
  const dataDir = tempDir('uma-proc-')
  dirs.push(dataDir)
  return startServerProcess({ DATA_DIR: dataDir, ...env })
}

function get (port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number, body: string }> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = ''
      res.on('data', (d) => { body += d })
      res.on('end', () => resolve({ status: res.statusCode!, body }))
    }).on('error', reject)
  })
}

const dirs: string[] = []
after(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }) })

describe('the server process', () => {
  it('starts on embedded defaults, prints a first key, and serves with it', async () => {
    const s = await startServer()
    try {
      const key = /Authorization: (um_\S+)"/.exec(s.output())?.[1]
      assert.ok(key, 'the first start prints a key')
      assert.equal((await get(s.port, '/healthz')).status, 200)
      const res = await get(s.port, '/gen/html', { authorization: key })
      assert.equal(res.status, 500)
      assert.equal(JSON.parse(res.body).error, 'TEST_ERROR')
      // One structured line per request, naming the key by name, never the key.
      await until(() => /"key":"default"/.test(s.output()))
      assert.equal(s.output().split(key).length - 1, 1, 'the key appears only in the start-up banner')
    } finally {
      s.child.kill('SIGTERM')
      assert.equal(await s.exited, 0)
    }
  })

  it('finishes a request in flight on SIGTERM, then exits 0', async () => {
    const s = await startServer({ API_KEYS: 'graceful-test-key-0123456789' })
    const answer = new Promise<{ status: number, body: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: s.port, method: 'GET', path: '/gen/html', headers: { authorization: 'graceful-test-key-0123456789', 'content-length': '10', 'content-type': 'text/plain' } }, (res) => {
        let body = ''
        res.on('data', (d) => { body += d })
        res.on('end', () => resolve({ status: res.statusCode!, body }))
      })
      req.on('error', reject)
      req.write('12345')
      // The rest of the body arrives after the signal.
      setTimeout(() => {
        s.child.kill('SIGTERM')
        setTimeout(() => req.end('67890'), 300)
      }, 300)
    })
    const res = await answer
    assert.equal(res.status, 500)
    assert.equal(JSON.parse(res.body).error, 'TEST_ERROR')
    assert.equal(await s.exited, 0)
    assert.match(s.output(), /shutting down/)
  })

  it('refuses to start on a bad setting, naming the variable', () => {
    const r = spawnSync(process.execPath, ['dist/server.js'], { env: { ...process.env, PORT: 'eighty' }, encoding: 'utf8' })
    assert.equal(r.status, 78)
    assert.match(r.stderr, /Invalid configuration: PORT/)
  })
})
