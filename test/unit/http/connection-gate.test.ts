// The connection gate's decisions (src/http/connection-gate.ts), address by address:
// what real sockets cannot show on one machine (IPv6 prefixes, trusted proxies' ranges,
// the reserve). test/system/hostile/connections-per-address.test.ts holds it over real sockets.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { addressMatcher } from '../../../src/http/client-address.js'
import { loadConfig } from '../../../src/config.js'
import { type ConnectionLimits, createConnectionGate, type Held } from '../../../src/http/connection-gate.js'

function gate (limits: Partial<ConnectionLimits> = {}) {
  return createConnectionGate({ max: 40, perAddress: 8, idlePerAddress: 4, ipv6Prefix: 64, exempt: () => false, ...limits })
}

function held (verdict: Held | string): Held {
  assert.equal(typeof verdict, 'object', `admitted, not refused (${String(verdict)})`)
  return verdict as Held
}

describe('connection gate', () => {
  it('admits MAX_CONNECTIONS_PER_ADDRESS from one address and refuses the next, while other addresses are admitted', () => {
    const g = gate()
    for (let i = 0; i < 8; i++) held(g.open('198.51.100.7'))
    assert.equal(g.open('198.51.100.7'), 'address')
    held(g.open('198.51.100.8'))
    assert.deepEqual(g.state().addresses['198.51.100.7'], { open: 8, idle: 8 })
  })

  it('gives a closed connection\'s place back to its address', () => {
    const g = gate()
    const first = held(g.open('198.51.100.7'))
    for (let i = 1; i < 8; i++) held(g.open('198.51.100.7'))
    assert.equal(g.open('198.51.100.7'), 'address')
    first.closed()
    first.closed()
    held(g.open('198.51.100.7'))
    assert.equal(g.state().open, 8)
  })

  it('counts IPv6 clients by prefix (RATE_LIMIT_IPV6_PREFIX), and ::ffff:a.b.c.d as a.b.c.d', () => {
    const g = gate()
    for (let i = 0; i < 8; i++) held(g.open(`2001:db8:1:2::${(i + 1).toString(16)}`))
    assert.equal(g.open('2001:db8:1:2:ffff::1'), 'address', 'another address of the same /64')
    held(g.open('2001:db8:1:3::1'))
    for (let i = 0; i < 8; i++) held(g.open('203.0.113.9'))
    assert.equal(g.open('::ffff:203.0.113.9'), 'address')
    const wide = gate({ ipv6Prefix: 128 })
    for (let i = 0; i < 9; i++) held(wide.open(`2001:db8:1:2::${(i + 1).toString(16)}`))
  })

  it('keeps the last 5 % of MAX_CONNECTIONS for addresses that hold none', () => {
    const g = gate({ max: 40, perAddress: 40 })
    for (let i = 0; i < 38; i++) held(g.open('198.51.100.7'))
    assert.equal(g.open('198.51.100.7'), 'reserved')
    held(g.open('198.51.100.20'))
    assert.equal(g.open('198.51.100.20'), 'reserved', 'a second connection of the newcomer is not reserved for it')
    held(g.open('198.51.100.21'))
    assert.equal(g.open('198.51.100.22'), 'full')
  })

  it('exempts trusted proxies from the per-address cap, not from MAX_CONNECTIONS', () => {
    const g = gate({ exempt: addressMatcher(['10.0.0.0/8', '::1']) })
    for (let i = 0; i < 30; i++) held(g.open('10.1.2.3'))
    for (let i = 0; i < 8; i++) held(g.open('::1'))
    assert.equal(g.open('10.1.2.3'), 'reserved')
    held(g.open('11.1.2.3'))
    held(g.open('11.1.2.4'))
    assert.equal(g.open('11.1.2.5'), 'full', 'no place left at all')
  })

  it('closes an answer\'s connection when its address already keeps MAX_IDLE_CONNECTIONS_PER_ADDRESS idle ones', () => {
    const g = gate()
    const connections = Array.from({ length: 6 }, () => held(g.open('198.51.100.7')))
    // Six open, none busy: the first request's answer would make a fifth idle one.
    assert.equal(connections[0]!.requestStarted(), true)
    connections[0]!.requestEnded()
    connections[5]!.closed()
    connections[4]!.closed()
    // Four open: three others idle, below the cap.
    assert.equal(connections[0]!.requestStarted(), false)
    // Pipelined requests count once.
    assert.equal(connections[0]!.requestStarted(), false)
    assert.deepEqual(g.state().addresses['198.51.100.7'], { open: 4, idle: 3 })
    connections[0]!.requestEnded()
    connections[0]!.requestEnded()
    assert.deepEqual(g.state().addresses['198.51.100.7'], { open: 4, idle: 4 })
    connections[0]!.requestEnded()
    assert.deepEqual(g.state().addresses['198.51.100.7'], { open: 4, idle: 4 }, 'an extra end changes nothing')
    // A connection closed in the middle of a request leaves no busy count behind.
    assert.equal(connections[1]!.requestStarted(), false)
    connections[1]!.closed()
    connections[1]!.requestEnded()
    assert.deepEqual(g.state().addresses['198.51.100.7'], { open: 3, idle: 3 })
    for (const c of connections.slice(0, 4)) c.closed()
    assert.deepEqual(g.state(), { open: 0, addresses: {} })
  })
})

describe('connection settings', () => {
  it('defaults to a fifth of MAX_CONNECTIONS per address, half of that idle', () => {
    const defaults = loadConfig({})
    assert.deepEqual([defaults.maxConnections, defaults.maxConnectionsPerAddress, defaults.maxIdleConnectionsPerAddress], [500, 100, 50])
    const small = loadConfig({ MAX_CONNECTIONS: '40' })
    assert.deepEqual([small.maxConnectionsPerAddress, small.maxIdleConnectionsPerAddress], [8, 4])
    assert.equal(loadConfig({ MAX_CONNECTIONS: '3' }).maxConnectionsPerAddress, 1)
    const set = loadConfig({ MAX_CONNECTIONS_PER_ADDRESS: '30', MAX_IDLE_CONNECTIONS_PER_ADDRESS: '0' })
    assert.deepEqual([set.maxConnectionsPerAddress, set.maxIdleConnectionsPerAddress], [30, 0])
  })

  it('reads TRUST_PROXY as true, false, or the proxies\' addresses and ranges', () => {
    assert.equal(loadConfig({}).trustProxy, false)
    assert.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, true)
    assert.equal(loadConfig({ TRUST_PROXY: 'off' }).trustProxy, false)
    assert.deepEqual(loadConfig({ TRUST_PROXY: ' 127.0.0.1, 10.0.0.0/8 ,fd00::/8,::1' }).trustProxy, ['127.0.0.1', '10.0.0.0/8', 'fd00::/8', '::1'])
    for (const bad of ['maybe', '10.0.0.0/33', '127.0.0.1,nginx', '300.1.1.1']) {
      assert.throws(() => loadConfig({ TRUST_PROXY: bad }), /TRUST_PROXY must be true, false, or the reverse proxies' addresses/, bad)
    }
    const trusted = addressMatcher(loadConfig({ TRUST_PROXY: '127.0.0.1,10.0.0.0/8,fd00::/8' }).trustProxy as string[])
    assert.deepEqual(['127.0.0.1', '::ffff:127.0.0.1', '10.200.0.1', 'fd12::1', '127.0.0.2', '11.0.0.1', 'fe80::1', 'not an address'].map(trusted),
      [true, true, true, true, false, false, false, false])
  })
})
