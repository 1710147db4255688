import { expect } from 'chai';
import type { Context } from 'koa';
import { clientAddressOf, clientKey, clientKeyOf } from '../../../../api/middleware/clientAddress.js';

const ctxOf = (peer: string, forwarded?: string) =>
  ({
    req: { socket: { remoteAddress: peer } },
    ip: peer,
    get: (name: string) => (name === 'x-forwarded-for' ? (forwarded ?? '') : ''),
  }) as unknown as Context;

describe('clientAddressOf (TRUSTED_PROXIES)', function () {
  it('ignores X-Forwarded-For when no proxy is trusted', function () {
    expect(clientAddressOf(undefined)(ctxOf('::ffff:10.0.0.9', '1.2.3.4'))).to.equal('10.0.0.9');
  });

  it('takes the address the trusted hops appended, never what the caller wrote left of it', function () {
    const one = clientAddressOf({ hops: 1 });
    expect(one(ctxOf('10.0.0.9', '1.2.3.4'))).to.equal('1.2.3.4');
    expect(one(ctxOf('10.0.0.9', '6.6.6.6, 1.2.3.4'))).to.equal('1.2.3.4');
    expect(one(ctxOf('10.0.0.9'))).to.equal('10.0.0.9');
    const two = clientAddressOf({ hops: 2 });
    expect(two(ctxOf('10.0.0.9', '6.6.6.6, 1.2.3.4, 10.0.0.8'))).to.equal('1.2.3.4');
    expect(two(ctxOf('10.0.0.9', '1.2.3.4'))).to.equal('1.2.3.4');
  });

  it('walks trusted proxy addresses from the peer leftwards', function () {
    const list = clientAddressOf({ addresses: ['10.0.0.8', '10.0.0.9'] });
    expect(list(ctxOf('10.0.0.9', '6.6.6.6, 1.2.3.4, 10.0.0.8'))).to.equal('1.2.3.4');
    expect(list(ctxOf('5.5.5.5', '1.2.3.4'))).to.equal('5.5.5.5');
    expect(list(ctxOf('10.0.0.9', 'not-an-ip'))).to.equal('10.0.0.9');
  });
});

describe('clientKey: the one key of every per-address limit (#43 F5)', function () {
  it('keeps an IPv4 address, reads an IPv4-mapped IPv6 address as its IPv4, in any spelling', function () {
    expect(clientKey('203.0.113.7')).to.equal('203.0.113.7');
    for (const mapped of [
      '::ffff:203.0.113.7',
      '::FFFF:cb00:7107',
      '0:0:0:0:0:ffff:203.0.113.7',
      '[::ffff:203.0.113.7]',
    ])
      expect(clientKey(mapped), mapped).to.equal('203.0.113.7');
  });

  it('groups an IPv6 client by its /64, however the address is written', function () {
    const same = [
      '2001:db8:1:2::1',
      '2001:0db8:0001:0002:ffff:ffff:ffff:ffff',
      '2001:DB8:1:2:a::b%eth0',
      '2001:db8:1:2::',
      '[2001:db8:1:2::9]',
    ];
    for (const address of same) expect(clientKey(address), address).to.equal('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:3::7')).to.equal('2001:db8:1:3::/64');
    expect(clientKey('::1')).to.equal('0:0:0:0::/64');
    expect(clientKey('64:ff9b::192.0.2.33')).to.equal('64:ff9b:0:0::/64');
  });

  it('keeps what is not an address as given', function () {
    expect(clientKey('')).to.equal('');
    expect(clientKey('not-an-ip')).to.equal('not-an-ip');
  });

  it('keys the address the trusted proxies vouch for, never a forwarded one without them', function () {
    expect(clientKeyOf({ hops: 1 })(ctxOf('10.0.0.9', '2001:db8:5:6:7::1'))).to.equal('2001:db8:5:6::/64');
    expect(clientKeyOf(undefined)(ctxOf('2001:db8:9:9::1', '1.2.3.4'))).to.equal('2001:db8:9:9::/64');
  });
});
