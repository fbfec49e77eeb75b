// The fault proxy of the process tests (test/support/fault-proxy.ts), against a tiny echo server:
// each mode does to a connection what its name says, and passing again recovers.
import assert from 'node:assert/strict'
import net from 'node:net'
import { after, before, describe, it } from 'node:test'
import { type FaultProxy, startFaultProxy } from './fault-proxy.js'

let echo: net.Server
let echoPort = 0
let proxy: FaultProxy

before(async () => {
  echo = net.createServer((s) => { s.on('error', () => {}); s.pipe(s) })
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve))
  echoPort = (echo.address() as net.AddressInfo).port
  proxy = await startFaultProxy({ host: '127.0.0.1', port: echoPort })
})
after(async () => {
  await proxy.close()
  await new Promise((resolve) => echo.close(resolve))
})

/** A connection to the proxy, with what it received and how it ended. */
async function connect (): Promise<{ socket: net.Socket, received: () => string, ended: Promise<string> }> {
  const socket = net.connect({ host: '127.0.0.1', port: proxy.port })
  let data = ''
  socket.on('data', (d) => { data += d })
  const ended = new Promise<string>((resolve) => {
    socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message))
    socket.on('close', () => resolve('closed'))
  })
  await new Promise<void>((resolve, reject) => { socket.once('connect', resolve); socket.once('error', reject) })
  return { socket, received: () => data, ended }
}

/** Resolves with what arrived once `text` did, or rejects after `ms`. */
async function echoed (c: { socket: net.Socket, received: () => string }, text: string, ms = 2000): Promise<number> {
  const start = Date.now()
  c.socket.write(text)
  while (!c.received().endsWith(text)) {
    if (Date.now() - start > ms) throw new Error(`no echo of ${text} within ${ms} ms (got "${c.received()}")`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  return Date.now() - start
}

/** True when nothing comes back within ms. */
async function silent (c: { socket: net.Socket, received: () => string }, text: string, ms = 300): Promise<boolean> {
  const before = c.received()
  c.socket.write(text)
  await new Promise((resolve) => setTimeout(resolve, ms))
  return c.received() === before && !c.socket.destroyed
}

describe('fault proxy', () => {
  it('passes both ways', async () => {
    await proxy.pass()
    const c = await connect()
    await echoed(c, 'hello')
    c.socket.destroy()
  })

  it('delays each chunk and keeps their order', async () => {
    await proxy.delay(150)
    const c = await connect()
    c.socket.write('a')
    c.socket.write('b')
    const took = await echoed(c, 'c')
    // Each way is delayed: the echo comes back 300 ms later at least.
    assert.ok(took >= 250, `echoed after ${took} ms`)
    assert.equal(c.received(), 'abc')
    await proxy.pass()
    c.socket.destroy()
  })

  it('cut closes open connections and refuses new ones; pass accepts again on the same port', async () => {
    await proxy.pass()
    const port = proxy.port
    const open = await connect()
    await proxy.cut()
    assert.equal(await open.ended, 'closed')
    await assert.rejects(connect(), /ECONNREFUSED/)
    await proxy.pass()
    assert.equal(proxy.port, port)
    const c = await connect()
    await echoed(c, 'back')
    c.socket.destroy()
  })

  it('stall accepts new connections and forwards nothing, while open ones pass', async () => {
    await proxy.pass()
    const open = await connect()
    await proxy.stall()
    const stalled = await connect()
    assert.ok(await silent(stalled, 'lost'), 'a stalled connection echoes nothing and stays open')
    await echoed(open, 'still')
    await proxy.pass()
    await echoed(stalled, 'again')
    assert.ok(!stalled.received().includes('lost'), 'what was sent during the stall is dropped')
    open.socket.destroy()
    stalled.socket.destroy()
  })

  it('a black hole swallows open connections too, and they pass again afterwards', async () => {
    await proxy.pass()
    const open = await connect()
    await echoed(open, 'before')
    await proxy.blackHole()
    assert.ok(await silent(open, 'lost'))
    const fresh = await connect()
    assert.ok(await silent(fresh, 'lost'))
    await proxy.pass()
    await echoed(open, 'after')
    await echoed(fresh, 'after')
    open.socket.destroy()
    fresh.socket.destroy()
  })

  it('loseReplies forwards the marked chunk to the server and drops what comes back on that connection only', async () => {
    await proxy.pass()
    const marked = await connect()
    const other = await connect()
    await proxy.loseReplies('COMMIT')
    await echoed(marked, 'before')
    assert.ok(await silent(marked, 'COMMIT'), 'the reply to the marked chunk is lost')
    assert.ok(await silent(marked, 'later'), 'and every reply after it')
    await echoed(other, 'unmarked')
    await proxy.pass()
    await echoed(marked, 'again')
    marked.socket.destroy()
    other.socket.destroy()
  })

  it('reset closes open connections at once and new ones with a TCP reset', async () => {
    await proxy.pass()
    const open = await connect()
    await proxy.reset()
    assert.ok(['ECONNRESET', 'closed'].includes(await open.ended))
    const fresh = net.connect({ host: '127.0.0.1', port: proxy.port })
    const how = await new Promise<string>((resolve) => {
      fresh.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message))
      fresh.on('close', () => resolve('closed'))
    })
    assert.equal(how, 'ECONNRESET')
    await proxy.pass()
    const c = await connect()
    await echoed(c, 'ok')
    c.socket.destroy()
  })
})
