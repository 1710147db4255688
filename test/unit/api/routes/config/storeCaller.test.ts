import { expect } from 'chai';
import { configStoreCallerOf } from '../../../../../api/routes/config/storeCaller.js';
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
    // The client key as api/middleware/clientAddress.ts makes it (an IPv6 client by its /64).
    expect(configStoreCallerOf(anonymous, '2001:db8:1:2::/64')).to.equal('ip:2001:db8:1:2::/64');
  });
});
