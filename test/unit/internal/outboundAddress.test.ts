import { expect } from 'chai';
import { parseOutboundAllowance, refusedRange } from '../../../internal/outboundAddress.js';
import { guardedLookup, resolveAllowed } from '../../../internal/outboundGuard.js';

const NONE = parseOutboundAllowance('');

describe('internal/outboundAddress: which addresses a webhook may reach', () => {
  it('refuses loopback, private, link-local, unspecified, multicast and reserved addresses, naming the range', () => {
    const cases: [string, string][] = [
      ['127.0.0.1', 'loopback'],
      ['127.255.0.9', 'loopback'],
      ['::1', 'loopback'],
      ['[::1]', 'loopback'],
      ['10.0.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.0.10', 'private'],
      ['100.64.1.1', 'private'],
      ['fd12:3456::1', 'private'],
      ['169.254.169.254', 'link-local'],
      ['fe80::1', 'link-local'],
      ['0.0.0.0', 'unspecified'],
      ['::', 'unspecified'],
      ['224.0.0.1', 'multicast'],
      ['ff02::1', 'multicast'],
      ['240.0.0.1', 'reserved'],
      // IPv4-mapped and NAT64 forms are judged by the IPv4 address they carry.
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['[::ffff:a9fe:a9fe]', 'link-local'],
      ['0:0:0:0:0:ffff:10.1.2.3', 'private'],
      ['64:ff9b::7f00:1', 'loopback'],
    ];
    for (const [address, range] of cases) expect(refusedRange(address, NONE), address).to.equal(range);
  });

  it('lets public addresses through', () => {
    for (const address of ['1.1.1.1', '203.0.113.10', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(refusedRange(address, NONE), address).to.equal(null);
  });

  it('allows what the operator names: a range by name, or a CIDR', () => {
    const allow = parseOutboundAllowance('loopback, 10.20.0.0/16');
    expect(refusedRange('127.0.0.1', allow)).to.equal(null);
    expect(refusedRange('::1', allow)).to.equal(null);
    expect(refusedRange('10.20.3.4', allow)).to.equal(null);
    expect(refusedRange('10.21.0.1', allow)).to.equal('private');
    expect(refusedRange('169.254.169.254', allow)).to.equal('link-local');
  });

  it('refuses an allowance entry that is neither a range name nor a CIDR, naming it', () => {
    expect(() => parseOutboundAllowance('loopback,intranet')).to.throw(/intranet/);
    expect(() => parseOutboundAllowance('10.0.0.0/33')).to.throw(/10\.0\.0\.0\/33/);
  });
});

describe('internal/outboundGuard: resolving and connecting only to checked addresses', () => {
  it('refuses a host name that resolves to loopback, and an IP literal without a lookup', async () => {
    const named = await resolveAllowed('localhost', NONE).catch((e: Error) => e);
    expect(String(named)).to.match(/host localhost resolves to .* a loopback address/);
    const literal = await resolveAllowed('[::ffff:127.0.0.1]', NONE).catch((e: Error) => e);
    expect(String(literal)).to.match(/loopback/);
    expect(await resolveAllowed('203.0.113.10', NONE)).to.deep.equal([{ address: '203.0.113.10', family: 4 }]);
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
