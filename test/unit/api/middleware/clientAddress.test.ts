import { expect } from 'chai';
import type { Context } from 'koa';
import { clientAddressOf } from '../../../../api/middleware/clientAddress.js';

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
