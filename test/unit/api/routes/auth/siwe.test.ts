import { expect } from 'chai';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { buildSignInMessage, checkSignIn } from '../../../../../api/routes/auth/siwe.js';

describe('api/routes/auth/siwe', function () {
  const account = privateKeyToAccount(generatePrivateKey());

  it('accepts the EOA signature of the message it built, with its nonce', async function () {
    const built = buildSignInMessage({ address: account.address.toLowerCase(), domain: 'api.example.org', uri: 'https://api.example.org' });
    const signature = await account.signMessage({ message: built.message });
    expect(await checkSignIn({ address: account.address, message: built.message, signature })).to.deep.equal({ ok: true, nonce: built.nonce });
  });

  it('refuses another signer, a non-SIWE message and an expired message', async function () {
    const built = buildSignInMessage({ address: account.address, domain: 'api.example.org', uri: 'https://api.example.org' });
    const other = await privateKeyToAccount(generatePrivateKey()).signMessage({ message: built.message });
    expect(await checkSignIn({ address: account.address, message: built.message, signature: other })).to.deep.include({ ok: false, field: 'signature' });
    expect(await checkSignIn({ address: account.address, message: 'hello', signature: other })).to.deep.include({ ok: false, field: 'message' });
    const old = buildSignInMessage({ address: account.address, domain: 'api.example.org', uri: 'https://api.example.org', now: new Date(Date.now() - 10 * 60_000) });
    const signature = await account.signMessage({ message: old.message });
    expect(await checkSignIn({ address: account.address, message: old.message, signature })).to.deep.include({ ok: false, field: 'message' });
  });
});
