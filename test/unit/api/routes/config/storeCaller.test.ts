import { expect } from 'chai';
import { configStoreCallerOf, ipv6Prefix64 } from '../../../../../api/routes/config/storeCaller.js';
import type { AuthState } from '../../../../../api/identity/types.js';

const anonymous: AuthState = { auth: null, session: null, apiKey: null, backOffice: false };

describe('api/routes/config/storeCaller', () => {
  it('names the caller by API key, else account, else client address; the back office is not limited', () => {
    const auth = { kind: 'jwt' as const, address: '0xabc', tier: 0 };
    const apiKey = { id: 'k1', ownerAddress: '0xabc', tier: 1 };
    expect(configStoreCallerOf({ ...anonymous, auth, apiKey }, '10.0.0.1')).to.equal('key:k1');
    expect(configStoreCallerOf({ ...anonymous, auth }, '10.0.0.1')).to.equal('user:0xabc');
    expect(configStoreCallerOf(anonymous, '10.0.0.1')).to.equal('ip:10.0.0.1');
    expect(configStoreCallerOf({ ...anonymous, backOffice: true }, '10.0.0.1')).to.equal(null);
  });

  it('groups an IPv6 client by its /64, however the address is written', () => {
    const same = [
      '2001:db8:1:2::1',
      '2001:0db8:0001:0002:ffff:ffff:ffff:ffff',
      '2001:DB8:1:2:a::b%eth0',
      '2001:db8:1:2::',
    ];
    for (const address of same) expect(ipv6Prefix64(address), address).to.equal('2001:db8:1:2::/64');
    expect(ipv6Prefix64('::1')).to.equal('0:0:0:0::/64');
    expect(ipv6Prefix64('2001:db8::')).to.equal('2001:db8:0:0::/64');
    expect(ipv6Prefix64('64:ff9b::192.0.2.33')).to.equal('64:ff9b:0:0::/64');
    expect(configStoreCallerOf(anonymous, '2001:db8:1:2::7')).to.equal('ip:2001:db8:1:2::/64');
    expect(configStoreCallerOf(anonymous, '2001:db8:1:3::7')).to.equal('ip:2001:db8:1:3::/64');
  });
});
