import { expect } from 'chai';
import { outboundRefusal, parseOutboundAllowance, refusedRange } from '../../../internal/outboundAddress.js';
import { IPV4_SPECIAL_RANGES, IPV6_RESERVED_BLOCKS, IPV6_SPECIAL_RANGES } from '../../../internal/specialAddresses.js';
import { boundedLookup, guardedLookup, resolveAllowed } from '../../../internal/outboundGuard.js';

const NONE = parseOutboundAllowance('');

describe('internal/outboundAddress: which addresses a webhook may reach', () => {
  /** One address inside each range of the registry tables, and the group it is refused as (its embedded IPv4 is public). */
  const INSIDE: [cidr: string, address: string, group: string][] = [
    // IANA IPv4 Special-Purpose Address Registry, and multicast.
    ['0.0.0.0/8', '0.1.2.3', 'unspecified'],
    ['0.0.0.0/32', '0.0.0.0', 'unspecified'],
    ['10.0.0.0/8', '10.1.2.3', 'private'],
    ['100.64.0.0/10', '100.127.255.254', 'private'],
    ['127.0.0.0/8', '127.255.0.9', 'loopback'],
    ['169.254.0.0/16', '169.254.169.254', 'link-local'],
    ['172.16.0.0/12', '172.31.255.255', 'private'],
    ['192.0.0.0/24', '192.0.0.200', 'reserved'],
    ['192.0.0.0/29', '192.0.0.1', 'reserved'],
    ['192.0.0.8/32', '192.0.0.8', 'reserved'],
    ['192.0.0.9/32', '192.0.0.9', 'reserved'],
    ['192.0.0.10/32', '192.0.0.10', 'reserved'],
    ['192.0.0.170/31', '192.0.0.171', 'reserved'],
    ['192.0.2.0/24', '192.0.2.2', 'documentation'],
    ['192.31.196.0/24', '192.31.196.1', 'reserved'],
    ['192.52.193.0/24', '192.52.193.1', 'reserved'],
    ['192.88.99.0/24', '192.88.99.1', 'reserved'],
    ['192.168.0.0/16', '192.168.0.10', 'private'],
    ['192.175.48.0/24', '192.175.48.1', 'reserved'],
    ['198.18.0.0/15', '198.19.255.1', 'reserved'],
    ['198.51.100.0/24', '198.51.100.7', 'documentation'],
    ['203.0.113.0/24', '203.0.113.10', 'documentation'],
    ['224.0.0.0/4', '239.255.255.250', 'multicast'],
    ['240.0.0.0/4', '240.0.0.1', 'reserved'],
    ['255.255.255.255/32', '255.255.255.255', 'reserved'],
    // IANA IPv6 Special-Purpose Address Registry, site-local and IPv4-compatible.
    ['::1/128', '[::1]', 'loopback'],
    ['::/128', '::', 'unspecified'],
    ['::/96', '::8.8.8.8', 'reserved'],
    ['::ffff:0:0/96', '::ffff:8.8.8.8', 'translation'],
    ['::ffff:0:0:0/96', '::ffff:0:808:808', 'reserved'],
    ['64:ff9b::/96', '64:ff9b::8.8.8.8', 'translation'],
    ['64:ff9b:1::/48', '64:ff9b:1:808:8:800::', 'translation'],
    ['100::/64', '100::1', 'reserved'],
    ['100:0:0:1::/64', '100:0:0:1::1', 'reserved'],
    ['2001::/23', '2001:8::1', 'reserved'],
    ['2001::/32', '2001:0:808:808::f7f7:f7f7', 'translation'],
    ['2001:1::1/128', '2001:1::1', 'reserved'],
    ['2001:1::2/128', '2001:1::2', 'reserved'],
    ['2001:1::3/128', '2001:1::3', 'reserved'],
    ['2001:2::/48', '2001:2::1', 'reserved'],
    ['2001:3::/32', '2001:3::1', 'reserved'],
    ['2001:4:112::/48', '2001:4:112::1', 'reserved'],
    ['2001:10::/28', '2001:1f::1', 'reserved'],
    ['2001:20::/28', '2001:20::1', 'reserved'],
    ['2001:30::/28', '2001:30::1', 'reserved'],
    ['2001:db8::/32', '2001:db8::1', 'documentation'],
    ['2002::/16', '2002:808:808::1', 'translation'],
    ['2620:4f:8000::/48', '2620:4f:8000::1', 'reserved'],
    ['3fff::/20', '3fff:fff::1', 'documentation'],
    ['5f00::/16', '5f00::1', 'reserved'],
    ['fc00::/7', 'fd12:3456::1', 'private'],
    ['fe80::/10', 'fe80::1', 'link-local'],
    ['fec0::/10', 'fec0::1', 'private'],
    ['ff00::/8', 'ff02::1', 'multicast'],
    // IANA IPv6 Address Space: reserved by IETF (not global unicast).
    ['::/8', '0:0:0:1::1', 'reserved'],
    ['100::/8', '1ff::1', 'reserved'],
    ['200::/7', '200::1', 'reserved'],
    ['400::/6', '400::1', 'reserved'],
    ['800::/5', '800::1', 'reserved'],
    ['1000::/4', '1000::1', 'reserved'],
    ['4000::/3', '4000::1', 'reserved'],
    ['6000::/3', '6000::1', 'reserved'],
    ['8000::/3', '8000::1', 'reserved'],
    ['a000::/3', 'a000::1', 'reserved'],
    ['c000::/3', 'c000::1', 'reserved'],
    ['e000::/4', 'e000::1', 'reserved'],
    ['f000::/5', 'f000::1', 'reserved'],
    ['f800::/6', 'f800::1', 'reserved'],
    ['fe00::/9', 'fe00::1', 'reserved'],
  ];

  it('has a case for every range of the IANA tables', () => {
    const ranges = [...IPV4_SPECIAL_RANGES, ...IPV6_SPECIAL_RANGES, ...IPV6_RESERVED_BLOCKS].map((r) => r.cidr);
    expect(INSIDE.map(([cidr]) => cidr).sort()).to.deep.equal([...ranges].sort());
    for (const r of [...IPV4_SPECIAL_RANGES, ...IPV6_SPECIAL_RANGES]) expect(r.rfc, r.cidr).to.match(/^RFC \d+/);
  });

  it('refuses an address inside each range, naming its group, its registry name and RFC', () => {
    for (const [cidr, address, group] of INSIDE) {
      const refusal = outboundRefusal(address, NONE);
      expect(refusal?.group, `${address} in ${cidr}`).to.equal(group);
      expect(refusal?.rfc, `${address} in ${cidr}`).to.match(/^RFC \d+/);
    }
  });

  it('judges an address carrying an IPv4 address by that address too (mapped, compatible, SIIT, NAT64, 6to4, Teredo)', () => {
    const cases: [string, string][] = [
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['[::ffff:a9fe:a9fe]', 'link-local'],
      ['0:0:0:0:0:ffff:10.1.2.3', 'private'],
      ['[::127.0.0.1]', 'loopback'],
      ['[::ffff:0:7f00:1]', 'loopback'],
      ['[2002:7f00:1::]', 'loopback'],
      ['2002:c000:202::1', 'documentation'],
      ['64:ff9b::7f00:1', 'loopback'],
      ['64:ff9b:1:7f00:0:100::', 'loopback'],
      ['2001:0:808:808::80ff:fffe', 'loopback'], // Teredo client 127.0.0.1 (bits inverted)
      ['2001:0:a00:1::f7f7:f7f7', 'private'], // Teredo server 10.0.0.1
    ];
    for (const [address, group] of cases) expect(refusedRange(address, NONE), address).to.equal(group);
    expect(outboundRefusal('[2002:7f00:1::]', NONE)?.via).to.equal('127.0.0.1');
    // Allowing the translation forms reaches public IPv4 through them, never a refused one.
    const translation = parseOutboundAllowance('translation');
    expect(refusedRange('64:ff9b::8.8.8.8', translation)).to.equal(null);
    expect(refusedRange('2002:808:808::1', translation)).to.equal(null);
    expect(refusedRange('64:ff9b::7f00:1', translation)).to.equal('loopback');
  });

  it('refuses every address of the #43 F8 audit', () => {
    const audit = [
      '[::127.0.0.1]',
      '[::ffff:0:7f00:1]',
      '[2002:7f00:1::]',
      '[fec0::1]',
      '2001:db8::1',
      '192.0.2.2',
      '198.51.100.1',
      '203.0.113.1',
    ];
    for (const address of audit) expect(refusedRange(address, NONE), address).to.not.equal(null);
  });

  it('lets public neighbours through', () => {
    const publicAddresses = [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '100.128.0.1',
      '192.0.3.1',
      '198.51.101.1',
      '203.0.114.1',
      '223.255.255.255',
      '2606:4700::1111',
      '2001:4860:4860::8888',
      '2001:200::1',
      '3fff:1000::1',
      '2a00:1450:4001::1',
    ];
    for (const address of publicAddresses) expect(refusedRange(address, NONE), address).to.equal(null);
  });

  it('refuses what is not an IP address', () => {
    expect(refusedRange('example.com', NONE)).to.equal('reserved');
  });

  it('allows what the operator names: a range by name, or a CIDR', () => {
    const allow = parseOutboundAllowance('loopback, documentation, 10.20.0.0/16');
    expect(refusedRange('127.0.0.1', allow)).to.equal(null);
    expect(refusedRange('::1', allow)).to.equal(null);
    expect(refusedRange('192.0.2.2', allow)).to.equal(null);
    expect(refusedRange('10.20.3.4', allow)).to.equal(null);
    expect(refusedRange('10.21.0.1', allow)).to.equal('private');
    expect(refusedRange('169.254.169.254', allow)).to.equal('link-local');
  });

  it('refuses an allowance entry that is neither a range name nor a CIDR, naming it', () => {
    expect(() => parseOutboundAllowance('loopback,intranet')).to.throw(/intranet/);
    expect(() => parseOutboundAllowance('10.0.0.0/33')).to.throw(/10\.0\.0\.0\/33/);
    expect(() => parseOutboundAllowance('10.0.0.0/8/8')).to.throw(/10\.0\.0\.0\/8\/8/);
  });
});

describe('internal/outboundGuard: resolving and connecting only to checked addresses', () => {
  it('refuses a host name that resolves to loopback, and an IP literal without a lookup', async () => {
    const named = await resolveAllowed('localhost', NONE).catch((e: Error) => e);
    expect(String(named)).to.match(/host localhost resolves to .* a loopback address/);
    const literal = await resolveAllowed('[::ffff:127.0.0.1]', NONE).catch((e: Error) => e);
    expect(String(literal)).to.match(/loopback/);
    expect(await resolveAllowed('8.8.8.8', NONE)).to.deep.equal([{ address: '8.8.8.8', family: 4 }]);
    const documentation = await resolveAllowed('[2002:c000:202::1]', NONE).catch((e: Error) => e);
    expect(String(documentation)).to.match(
      /carrying 192\.0\.2\.2, a documentation address \(Documentation \(TEST-NET-1\), 192\.0\.2\.0\/24, RFC 5737/,
    );
  });

  it('bounds name lookups: a name whose DNS never answers holds at most maxInFlight lookups and is refused in time, others wait their turn', async () => {
    const pending: (() => void)[] = [];
    let started = 0;
    const lookup = boundedLookup({
      maxInFlight: 2,
      timeoutMs: 150,
      lookup: (host, callback) => {
        started++;
        if (host === 'stalls.example') return; // never answers
        pending.push(() => callback(null, [{ address: '8.8.4.4', family: 4 }]));
      },
    });
    const t0 = Date.now();
    const stuck = await Promise.all([
      lookup('stalls.example').catch((e: Error) => e),
      lookup('stalls.example').catch((e: Error) => e),
      lookup('stalls.example').catch((e: Error) => e),
    ]);
    expect(Date.now() - t0).to.be.below(1000);
    for (const e of stuck) expect(String(e)).to.match(/host stalls\.example did not resolve within 150 ms/);
    // Two lookups started and still hold their slots (the system never answered them); the third never started.
    expect(started).to.equal(2);
    const late = await lookup('fine.example').catch((e: Error) => e);
    expect(String(late)).to.match(/did not resolve within 150 ms/);
    expect(started, 'no slot free: the lookup was not even sent').to.equal(2);
    // A name resolved through the bounded lookup is checked as any other.
    const free = boundedLookup({ lookup: (_h, cb) => cb(null, [{ address: '127.0.0.1', family: 4 }]) });
    expect(String(await resolveAllowed('x.example', NONE, free).catch((e: Error) => e))).to.match(/loopback/);
  });

  it("the socket's lookup fails for a name resolving to a refused address, and hands over the checked one when allowed", async () => {
    const lookUp = (allow: string, all: boolean) =>
      new Promise<unknown>((resolve) =>
        guardedLookup(parseOutboundAllowance(allow))('localhost', { all }, (error, address) =>
          resolve(error ?? address),
        ),
      );
    expect(String(await lookUp('', false))).to.match(/loopback/);
    expect(await lookUp('loopback', false)).to.match(/^(127\.0\.0\.1|::1)$/);
    expect(await lookUp('loopback', true)).to.be.an('array').that.is.not.empty;
  });
});
