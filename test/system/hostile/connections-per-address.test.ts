// The hostile suite, connections held by one address (issue 35, item 1): a client without
// a key opens MAX_CONNECTIONS idle sockets and opens a new one each time the server closes
// one (a 408 after HEADERS_TIMEOUT_MS, or a refusal). Before the per-address cap, /healthz
// and other keys' requests went unanswered for as long as it kept going. Over real
// sockets to the built server; the others come from other loopback addresses
// (127.0.0.2, 127.0.0.3: a client binds them with `localAddress`).
import assert from 'node:assert/strict'
import http from 'node:http'
import net from 'node:net'
import { after, before, describe, it } from 'node:test'
import { until } from '../../support/processes.js'
import { HOSTILE_KEY, type HostileServer, startHostileServer } from './harness.js'

const OTHER_KEY = 'hostile-conn-other-key-0123456789abcdef'
const ATTACKER = '127.0.0.1'
const CUSTOMER = '127.0.0.2'
const MONITOR = '127.0.0.3'

interface Answer { status: number, body: string }

/** One request on a fresh connection from `localAddress`; rejects when the server closes without an answer. */
function ask (server: HostileServer, path: string, localAddress: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: server.port, path, localAddress, headers, agent: false, timeout: 5000 }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (d: string) => { body += d })
      res.on('end', () => resolve({ status: res.statusCode!, body }))
    })
    req.on('timeout', () => req.destroy(new Error(`no answer to ${path} within 5 s`)))
    req.on('error', reject)
  })
}

/** `ask`, again every 20 ms while the connection is refused, for at most a second. */
async function askSoon (server: HostileServer, path: string, localAddress: string): Promise<Answer> {
  const end = performance.now() + 1000
  for (;;) {
    try {
      return await ask(server, path, localAddress)
    } catch (err) {
      if (performance.now() > end) throw err
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
}

/**
 * The attacker: keeps `count` sockets open from `localAddress`, sending nothing, and opens
 * a new one whenever one is closed: at once after an answer (the 408), 50 ms after a close
 * without one (a refusal), so that the test's own CPU stays modest.
 */
function holdConnections (server: HostileServer, count: number, localAddress: string): { stop: () => { opened: number, answered: number } } {
  let stopped = false
  let opened = 0
  let answered = 0
  const sockets = new Set<net.Socket>()
  const open = (): void => {
    if (stopped) return
    opened++
    const socket = net.connect({ port: server.port, host: '127.0.0.1', localAddress })
    let got = false
    sockets.add(socket)
    socket.on('data', () => { if (!got) { got = true; answered++ } })
    socket.on('error', () => {})
    socket.on('close', () => {
      sockets.delete(socket)
      if (got) setImmediate(open)
      else setTimeout(open, 50)
    })
  }
  for (let i = 0; i < count; i++) open()
  return {
    stop () {
      stopped = true
      for (const socket of sockets) socket.destroy()
      return { opened, answered }
    }
  }
}

/** Opens `count` idle sockets from `localAddress` and resolves, once the server has closed them all, with what each received. */
async function idleSockets (server: HostileServer, count: number, localAddress: string): Promise<string[]> {
  return await Promise.all(Array.from({ length: count }, () => new Promise<string>((resolve) => {
    const socket = net.connect({ port: server.port, host: '127.0.0.1', localAddress })
    let data = ''
    socket.on('data', (d: Buffer) => { data += d.toString('latin1') })
    socket.on('error', () => {})
    socket.on('close', () => resolve(data))
  })))
}

describe('hostile: one address holding connections (MAX_CONNECTIONS=40)', () => {
  let server: HostileServer

  before(async () => {
    server = await startHostileServer({
      API_KEYS: `${HOSTILE_KEY},${OTHER_KEY}`,
      MAX_CONNECTIONS: '40',
      // Short, so that the attacker's sockets are answered 408 and replaced during the test.
      HEADERS_TIMEOUT_MS: '1000',
      KEEP_ALIVE_TIMEOUT_MS: '2000'
    })
  })
  after(async () => { await server?.stop() })

  it('answers /healthz and another key\'s requests from other addresses while one address holds connections and reconnects', async () => {
    const attack = holdConnections(server, 40, ATTACKER)
    // Let the attacker take what it can before the others start asking.
    await new Promise((resolve) => setTimeout(resolve, 300))
    const answers: Array<Promise<{ what: string, status: number | string }>> = []
    const until = Date.now() + 3500
    while (Date.now() < until) {
      answers.push(ask(server, '/healthz', MONITOR).then((a) => ({ what: 'healthz', status: a.status }), (err: Error) => ({ what: 'healthz', status: err.message })))
      answers.push(ask(server, '/color/info?hex=00ff00', CUSTOMER, { authorization: OTHER_KEY }).then((a) => ({ what: 'color', status: a.status }), (err: Error) => ({ what: 'color', status: err.message })))
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const results = await Promise.all(answers)
    const totals = attack.stop()
    const failed = results.filter((r) => r.status !== 200)
    assert.deepEqual(failed, [], `${failed.length} of ${results.length} requests from other addresses not answered 200 (the attacker opened ${totals.opened} connections)`)
    // The attack really ran: its sockets were answered 408 and replaced, and more were tried than the cap admits.
    assert.ok(totals.answered >= 1, `the attacker's idle sockets were answered (408) and replaced: ${totals.answered}`)
    assert.ok(totals.opened > 40, `the attacker kept reconnecting: ${totals.opened} connections`)
    // Healthy right after, for the attacker's own address too once the server has seen
    // its sockets close (a reset until then: its places are still held).
    assert.equal((await askSoon(server, '/healthz', ATTACKER)).status, 200)
    assert.equal((await ask(server, '/color/info?hex=00ff00', ATTACKER, { authorization: HOSTILE_KEY })).status, 200)
    assert.equal(server.child.exitCode, null, 'the server is still running')
  })

  it('lets one address hold MAX_CONNECTIONS_PER_ADDRESS (a fifth: 8) idle sockets; the others are closed at once, unanswered', async () => {
    const received = await idleSockets(server, 20, ATTACKER)
    const timedOut = received.filter((d) => d.startsWith('HTTP/1.1 408'))
    assert.equal(timedOut.length, 8, 'answered 408 after HEADERS_TIMEOUT_MS: the ones admitted')
    assert.equal(received.filter((d) => d === '').length, 12, 'closed without a byte: the ones refused')
    assert.equal((await askSoon(server, '/healthz', ATTACKER)).status, 200)
  })

  it('closes an answer\'s connection once its address keeps MAX_IDLE_CONNECTIONS_PER_ADDRESS (4) idle ones', async () => {
    const sockets: net.Socket[] = []
    const verdicts: string[] = []
    try {
      // One after the other, each kept open after its answer: the fifth finds four idle.
      for (let i = 0; i < 6; i++) {
        const socket = net.connect({ port: server.port, host: '127.0.0.1', localAddress: CUSTOMER })
        sockets.push(socket)
        const head = await new Promise<string>((resolve, reject) => {
          let data = ''
          socket.on('error', reject)
          socket.on('data', (d: Buffer) => {
            data += d.toString('latin1')
            const end = data.indexOf('\r\n\r\n')
            if (end >= 0 && data.length >= end + 4 + Number(/content-length: (\d+)/i.exec(data)?.[1] ?? 0)) resolve(data.slice(0, end))
          })
          socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
        })
        assert.match(head, /^HTTP\/1\.1 200/)
        verdicts.push(/\r\nconnection: close/i.test(head) ? 'close' : 'keep-alive')
      }
    } finally {
      for (const socket of sockets) socket.destroy()
    }
    assert.deepEqual(verdicts, ['keep-alive', 'keep-alive', 'keep-alive', 'keep-alive', 'close', 'close'])
  })
})

describe('hostile: connections through a trusted proxy (TRUST_PROXY=127.0.0.1)', () => {
  let server: HostileServer

  before(async () => {
    server = await startHostileServer({ MAX_CONNECTIONS: '40', HEADERS_TIMEOUT_MS: '1000', TRUST_PROXY: '127.0.0.1', LOG_LEVEL: 'info' })
  })
  after(async () => { await server?.stop() })

  it('exempts the proxy\'s connections from the per-address cap, and still holds other addresses to it', async () => {
    const [proxy, direct] = await Promise.all([idleSockets(server, 20, ATTACKER), idleSockets(server, 12, CUSTOMER)])
    assert.equal(proxy.filter((d) => d.startsWith('HTTP/1.1 408')).length, 20, 'every connection of the proxy admitted')
    assert.equal(direct.filter((d) => d.startsWith('HTTP/1.1 408')).length, 8, 'a direct client held to its fifth')
    // The per-IP limits still read the client from X-Forwarded-For.
    assert.equal((await ask(server, '/healthz', ATTACKER, { 'x-forwarded-for': '203.0.113.7' })).status, 200)
    await until(() => server.output().includes('"ip":"203.0.113.7"'))
  })
})
