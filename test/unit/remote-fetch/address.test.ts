// Address classification over every refused range. Pure functions: no traffic at all.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { classifyAddress, hostIsAllowed, parseAllowList } from '../../../src/remote-fetch/address.js'
import { loadConfig } from '../../../src/config.js'

const REFUSED: Array<[string, string]> = [
  ['127.0.0.1', 'loopback'], ['127.255.255.254', 'loopback'], ['127.1', 'loopback'],
  ['2130706433', 'loopback'], ['0x7f000001', 'loopback'], ['0177.0.0.1', 'loopback'],
  ['0.0.0.0', 'unspecified'], ['0', 'unspecified'],
  ['10.0.0.1', 'private'], ['10.255.255.255', 'private'], ['172.16.0.1', 'private'], ['172.31.255.254', 'private'],
  ['192.168.0.1', 'private'], ['192.168.255.255', 'private'],
  ['169.254.169.254', 'linkLocal'], ['169.254.0.1', 'linkLocal'],
  ['100.64.0.1', 'carrierGradeNat'], ['100.127.255.254', 'carrierGradeNat'],
  ['224.0.0.1', 'multicast'], ['239.255.255.250', 'multicast'], ['255.255.255.255', 'broadcast'],
  ['192.0.2.1', 'reserved'], ['198.51.100.7', 'reserved'], ['203.0.113.9', 'reserved'], ['240.0.0.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['::1', 'loopback'], ['[::1]', 'loopback'], ['0:0:0:0:0:0:0:1', 'loopback'], ['::', 'unspecified'],
  ['fe80::1', 'linkLocal'], ['fe80::1%eth0', 'linkLocal'], ['fc00::1', 'uniqueLocal'], ['fd12:3456::1', 'uniqueLocal'],
  ['ff02::1', 'multicast'], ['ff05::2', 'multicast'],
  // IPv4-mapped forms are judged by the IPv4 address they carry.
  ['::ffff:127.0.0.1', 'loopback'], ['[::ffff:7f00:1]', 'loopback'], ['::ffff:10.0.0.1', 'private'],
  ['::ffff:169.254.169.254', 'linkLocal'], ['::ffff:0.0.0.0', 'unspecified'],
  // IPv6 forms embedding an IPv4 address elsewhere are refused outright.
  ['64:ff9b::7f00:1', 'rfc6052'], ['2002:7f00:1::1', '6to4'], ['2001:0::1', 'teredo'],
  ['2001:db8::1', 'reserved'], ['fec0::1', 'deprecatedSiteLocal']
]

describe('address classification', () => {
  for (const [address, range] of REFUSED) {
    it(`refuses ${address} (${range})`, () => {
      const verdict = classifyAddress(address)
      assert.ok(verdict, `${address} should parse`)
      assert.equal(verdict.range, range)
      assert.equal(verdict.allowed, false)
    })
  }

  it('allows public unicast addresses, IPv4 and IPv6, and mapped public IPv4', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8', '172.32.0.1', '100.128.0.1']) {
      assert.deepEqual({ address, allowed: classifyAddress(address)?.allowed }, { address, allowed: true })
    }
  })

  // Regression: http://[::127.0.0.1]/ reached the URL parser as [::7f00:1], which
  // ipaddr.js names "unicast": an IPv4-compatible address (::/96) was fetched.
  it('refuses IPv4-compatible IPv6 (::/96) in every spelling, from a URL too', () => {
    for (const address of ['::7f00:1', '[::7f00:1]', '::127.0.0.1', '0:0:0:0:0:0:127.0.0.1', '::10.0.0.1', '::a9fe:a9fe', '::8.8.8.8', '::0.0.0.2',
      new URL('http://[::127.0.0.1]/').hostname, new URL('http://[::169.254.169.254]/').hostname]) {
      const verdict = classifyAddress(address)
      assert.deepEqual({ address, range: verdict?.range, allowed: verdict?.allowed }, { address, range: 'ipv4Compatible', allowed: false })
    }
  })

  it('refuses 6to4, NAT64 and Teredo addresses whichever IPv4 address they embed, private or public', () => {
    const cases: Array<[string, string]> = [
      ['2002:7f00:1::', '6to4'], ['2002:a00:1::1', '6to4'], ['2002:c0a8:101::1', '6to4'], ['2002:a9fe:a9fe::', '6to4'], ['2002:808:808::1', '6to4'],
      ['64:ff9b::127.0.0.1', 'rfc6052'], ['64:ff9b::a00:1', 'rfc6052'], ['64:ff9b::a9fe:a9fe', 'rfc6052'], ['64:ff9b::8.8.8.8', 'rfc6052'],
      ['64:ff9b:1::a00:1', 'rfc6052'],
      // Teredo carries the client's IPv4 address inverted in the last 32 bits (here 10.0.0.1 and 127.0.0.1).
      ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'teredo'], ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'teredo'], ['2001::1', 'teredo'],
      ['::ffff:0:7f00:1', 'rfc6145'], ['::ffff:0:a00:1', 'rfc6145']
    ]
    for (const [address, range] of cases) {
      const verdict = classifyAddress(address)
      assert.deepEqual({ address, range: verdict?.range, allowed: verdict?.allowed }, { address, range, allowed: false })
    }
    // An operator's IPv4 allowance does not open the IPv6 spellings of those addresses.
    const list = parseAllowList(['10.0.0.0/8'])
    for (const address of ['2002:a00:1::1', '64:ff9b::a00:1', '::a00:1']) assert.equal(classifyAddress(address, list)?.allowed, false, address)
  })

  it('says nothing about host names', () => {
    for (const host of ['example.com', 'localhost', '1.2.3.4.nip.io']) assert.equal(classifyAddress(host), undefined)
  })
})

describe('REMOTE_FETCH_ALLOW', () => {
  it('allows listed addresses, CIDR ranges and hosts only', () => {
    const list = parseAllowList(['10.1.0.0/16', '127.0.0.1', 'fd00::/8', 'media.internal', '*.corp.example', '::ffff:192.168.0.0/112'])
    assert.equal(classifyAddress('10.1.2.3', list)?.allowed, true)
    assert.equal(classifyAddress('10.1.2.3', list)?.byAllowList, true)
    assert.equal(classifyAddress('10.2.0.1', list)?.allowed, false)
    assert.equal(classifyAddress('127.0.0.1', list)?.allowed, true)
    assert.equal(classifyAddress('2130706433', list)?.allowed, true)
    assert.equal(classifyAddress('127.0.0.2', list)?.allowed, false)
    assert.equal(classifyAddress('fd00::5', list)?.allowed, true)
    assert.equal(classifyAddress('fc00::5', list)?.allowed, false)
    assert.equal(classifyAddress('192.168.7.1', list)?.allowed, true)
    assert.equal(classifyAddress('169.254.169.254', list)?.allowed, false)
    assert.equal(hostIsAllowed(list, 'MEDIA.internal.'), true)
    assert.equal(hostIsAllowed(list, 'cdn.corp.example'), true)
    assert.equal(hostIsAllowed(list, 'corp.example'), false)
    assert.equal(hostIsAllowed(list, 'evilcorp.example'), false)
    assert.equal(hostIsAllowed(list, 'media.internal.evil.com'), false)
  })

  it('is read from the environment and refuses entries it cannot read, naming the variable', () => {
    const config = loadConfig({ REMOTE_FETCH_ALLOW: ' 10.0.0.0/8 , cdn.local ' })
    assert.equal(config.remoteFetchAllow.ranges.length, 1)
    assert.deepEqual(config.remoteFetchAllow.hosts, ['cdn.local'])
    assert.deepEqual(loadConfig({}).remoteFetchAllow, { hosts: [], ranges: [] })
    for (const bad of ['10.0.0.0/33', 'not a host', 'http://x.com', '::1/200']) {
      assert.throws(() => loadConfig({ REMOTE_FETCH_ALLOW: bad }), /REMOTE_FETCH_ALLOW/)
    }
  })
})
