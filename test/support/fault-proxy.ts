// A TCP proxy whose faults are switched at run time, for process tests that show what
// the server does when PostgreSQL or Redis fails, without touching the real services.
// Shopify's Toxiproxy is the model: "timeout 0" (data dropped, connection kept) is our
// stall and black hole, "reset_peer" our reset, "latency" our delay, a disabled proxy
// our cut.
//
//   pass       forward both ways
//   cut        close every connection and refuse new ones (the listener closes; its port
//              is taken again when the mode changes)
//   delay(ms)  forward each chunk, both ways, ms later (order kept)
//   stall      new connections are accepted and kept open, nothing crosses them (what
//              they send is dropped); connections already open keep passing
//   blackhole  as stall, for the connections already open too
//   reset      new connections are accepted and closed with a TCP RST; open ones are
//              closed at once (a RST on a connection that carried data left the test
//              process spinning at exit in Node 20.20, in libuv's handle cleanup)
//   loseReplies(marker)
//              forward both ways, until the client sends a chunk holding `marker`: that
//              chunk reaches the server, and nothing the server sends back on that
//              connection crosses any more (a reply lost after the work was done, as
//              Toxiproxy's "timeout" toxic on the downstream side only)
//
// Leaving stall or blackhole for pass lets the stalled connections pass again (what was
// sent meanwhile is lost, as on a path that dropped it).
import net from 'node:net'

export type FaultMode =
  | { kind: 'pass' }
  | { kind: 'cut' }
  | { kind: 'delay', ms: number }
  | { kind: 'stall' }
  | { kind: 'blackhole' }
  | { kind: 'reset' }
  | { kind: 'loseReplies', marker: string }

interface Link {
  client: net.Socket
  upstream: net.Socket
  /** Accepted while the proxy stalled: nothing crosses it until the mode passes again. */
  stalled: boolean
  /** The client sent the loseReplies marker: the server's replies are dropped until the mode passes again. */
  repliesLost: boolean
}

export interface FaultProxy {
  /** The port the proxy listens on (127.0.0.1). */
  readonly port: number
  readonly mode: FaultMode
  /** Connections open through the proxy now. */
  readonly connections: number
  /** Connections accepted since the start. */
  readonly accepted: number
  pass (): Promise<void>
  cut (): Promise<void>
  delay (ms: number): Promise<void>
  stall (): Promise<void>
  blackHole (): Promise<void>
  reset (): Promise<void>
  /** Drops the server's replies on each connection once its client sent `marker`. */
  loseReplies (marker: string): Promise<void>
  close (): Promise<void>
}

export async function startFaultProxy (target: { host: string, port: number }): Promise<FaultProxy> {
  const links = new Set<Link>()
  let mode: FaultMode = { kind: 'pass' }
  let accepted = 0
  let listening = false
  let port = 0

  const server = net.createServer((client) => {
    accepted++
    if (mode.kind === 'reset') {
      resetSocket(client)
      return
    }
    const upstream = net.connect({ host: target.host, port: target.port })
    const link: Link = { client, upstream, stalled: mode.kind === 'stall' || mode.kind === 'blackhole', repliesLost: false }
    links.add(link)
    const drop = (): void => {
      links.delete(link)
      client.destroy()
      upstream.destroy()
    }
    client.on('error', drop).on('close', drop)
    upstream.on('error', drop).on('close', drop)
    forward(link, client, upstream, 'up')
    forward(link, upstream, client, 'down')
  })

  /** Moves `from`'s chunks to `to` as the mode says, in order ('up': client to server). */
  function forward (link: Link, from: net.Socket, to: net.Socket, direction: 'up' | 'down'): void {
    // Chunks wait here while a delay holds them, so a chunk never overtakes an earlier one.
    let tail = Promise.resolve()
    from.on('data', (chunk: Buffer) => {
      const m = mode
      if (link.stalled || m.kind === 'blackhole' || m.kind === 'cut' || m.kind === 'reset') return
      if (m.kind === 'loseReplies') {
        if (direction === 'down' && link.repliesLost) return
        if (direction === 'up' && chunk.includes(m.marker)) link.repliesLost = true
      }
      if (m.kind === 'delay') {
        const due = Date.now() + m.ms
        tail = tail.then(() => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())))).then(() => {
          if (!to.destroyed) to.write(chunk)
        })
        return
      }
      tail = tail.then(() => { if (!to.destroyed) to.write(chunk) })
    })
  }

  /** Sockets being reset: close() waits for them. */
  const resetting = new Set<Promise<void>>()
  /** Closes a client connection with a TCP RST. */
  function resetSocket (socket: net.Socket): void {
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
    resetting.add(closed)
    void closed.then(() => resetting.delete(closed))
    socket.on('error', () => {})
    socket.resetAndDestroy()
  }
  /** An open link under reset: closed at once (see the header on why not with a RST). */
  function resetLink (l: Link): void {
    links.delete(l)
    l.upstream.destroy()
    l.client.destroy()
  }

  async function listen (): Promise<void> {
    if (listening) return
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen({ host: '127.0.0.1', port, exclusive: true }, () => {
        server.off('error', reject)
        resolve()
      })
    })
    port = (server.address() as net.AddressInfo).port
    listening = true
  }

  async function stopListening (): Promise<void> {
    if (!listening) return
    listening = false
    // close() calls back once every connection is gone: they are destroyed right after.
    server.close()
  }

  async function set (next: FaultMode): Promise<void> {
    mode = next
    switch (next.kind) {
      case 'cut':
        await stopListening()
        for (const l of [...links]) { l.client.destroy(); l.upstream.destroy() }
        links.clear()
        return
      case 'reset':
        await listen()
        for (const l of [...links]) resetLink(l)
        links.clear()
        return
      case 'stall':
        await listen()
        return
      case 'blackhole':
        await listen()
        for (const l of links) l.stalled = true
        return
      case 'loseReplies':
        await listen()
        return
      default:
        await listen()
        for (const l of links) { l.stalled = false; l.repliesLost = false }
    }
  }

  await listen()
  return {
    get port () { return port },
    get mode () { return mode },
    get connections () { return links.size },
    get accepted () { return accepted },
    pass: () => set({ kind: 'pass' }),
    cut: () => set({ kind: 'cut' }),
    delay: (ms) => set({ kind: 'delay', ms }),
    stall: () => set({ kind: 'stall' }),
    blackHole: () => set({ kind: 'blackhole' }),
    reset: () => set({ kind: 'reset' }),
    loseReplies: (marker) => set({ kind: 'loseReplies', marker }),
    async close () {
      await set({ kind: 'cut' })
      await Promise.all([...resetting])
    }
  }
}
