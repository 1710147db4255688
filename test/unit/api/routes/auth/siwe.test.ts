import { expect } from 'chai';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { buildSignInMessage, checkSignIn, generateSignInNonce } from '../../../../../api/routes/auth/siwe.js';
import { sharedSubstring } from '../../../../helpers/sharedSubstring.js';

describe('api/routes/auth/siwe', function () {
  const account = privateKeyToAccount(generatePrivateKey());
  const expected = { domain: 'api.example.org', uri: 'https://api.example.org', chainId: 1 };
  const nonceIsLive = async () => true;

  it('accepts the EOA signature of the message it built, with its nonce', async function () {
    const built = buildSignInMessage({
      address: account.address.toLowerCase(),
      domain: 'api.example.org',
      uri: 'https://api.example.org',
    });
    const signature = await account.signMessage({ message: built.message });
    expect(
      await checkSignIn({ address: account.address, message: built.message, signature, expected, nonceIsLive }),
    ).to.deep.equal({
      ok: true,
      nonce: built.nonce,
    });
  });

  it('refuses another signer, a non-SIWE message and an expired message', async function () {
    const built = buildSignInMessage({
      address: account.address,
      domain: 'api.example.org',
      uri: 'https://api.example.org',
    });
    const other = await privateKeyToAccount(generatePrivateKey()).signMessage({ message: built.message });
    expect(
      await checkSignIn({ address: account.address, message: built.message, signature: other, expected, nonceIsLive }),
    ).to.deep.include({ ok: false, field: 'signature' });
    expect(
      await checkSignIn({ address: account.address, message: 'hello', signature: other, expected, nonceIsLive }),
    ).to.deep.include({ ok: false, field: 'message' });
    const old = buildSignInMessage({
      address: account.address,
      domain: 'api.example.org',
      uri: 'https://api.example.org',
      now: new Date(Date.now() - 10 * 60_000),
    });
    const signature = await account.signMessage({ message: old.message });
    expect(
      await checkSignIn({ address: account.address, message: old.message, signature, expected, nonceIsLive }),
    ).to.deep.include({
      ok: false,
      field: 'message',
    });
  });

  it('refuses a message for another domain, URI or chain, without issued-at or expiry, or issued in the future', async function () {
    const sign = async (message: string) =>
      checkSignIn({
        address: account.address,
        message,
        signature: await account.signMessage({ message }),
        expected,
        nonceIsLive,
      });
    const evil = buildSignInMessage({ address: account.address, domain: 'evil.example', uri: 'https://evil.example' });
    expect(await sign(evil.message)).to.deep.include({ ok: false, field: 'message' });
    expect(((await sign(evil.message)) as { reason: string }).reason).to.match(/another domain/);
    const wrongUri = buildSignInMessage({
      address: account.address,
      domain: 'api.example.org',
      uri: 'https://evil.example',
    });
    expect(((await sign(wrongUri.message)) as { reason: string }).reason).to.match(/another URI/);
    const wrongChain = buildSignInMessage({
      address: account.address,
      domain: 'api.example.org',
      uri: 'https://api.example.org',
      chainId: 10,
    });
    expect(((await sign(wrongChain.message)) as { reason: string }).reason).to.match(/another chain/);
    const built = buildSignInMessage({ address: account.address, ...expected });
    expect(await sign(built.message.replace(/\nIssued At: .*/, ''))).to.deep.include({ ok: false, field: 'message' });
    expect(((await sign(built.message.replace(/\nExpiration Time: .*/, ''))) as { reason: string }).reason).to.match(
      /expiration/,
    );
    const future = buildSignInMessage({
      address: account.address,
      ...expected,
      now: new Date(Date.now() + 10 * 60_000),
    });
    expect(((await sign(future.message)) as { reason: string }).reason).to.match(/issued-at/);
  });

  it("asks for a contract wallet on the message's chain only, and refuses a chainId beside it that names another", async function () {
    const built = buildSignInMessage({ address: account.address, ...expected });
    const junk = await privateKeyToAccount(generatePrivateKey()).signMessage({ message: built.message });
    const asked: number[] = [];
    const readOn = (chainId: number) => void asked.push(chainId);
    const check = (chainId?: number) =>
      checkSignIn({
        address: account.address,
        message: built.message,
        signature: junk,
        expected,
        chainId,
        readOn,
        nonceIsLive,
      });
    expect(await check(31337)).to.deep.include({ ok: false, field: 'chainId' });
    expect(asked).to.deep.equal([]);
    const unconfigured = await check(1);
    expect(unconfigured).to.deep.include({ ok: false, field: 'signature' });
    expect((unconfigured as { reason: string }).reason).to.match(/chain 1 named in the message is not configured/);
    expect(asked).to.deep.equal([1]);
  });

  it('refuses a nonce that is not live before any signature check: no chain is asked', async function () {
    const built = buildSignInMessage({ address: account.address, ...expected });
    const junk = await privateKeyToAccount(generatePrivateKey()).signMessage({ message: built.message });
    const asked: number[] = [];
    const checkedNonces: string[] = [];
    const refused = await checkSignIn({
      address: account.address,
      message: built.message,
      signature: junk,
      expected,
      readOn: (chainId) => void asked.push(chainId),
      nonceIsLive: async (nonce) => (checkedNonces.push(nonce), false),
    });
    expect(refused).to.deep.equal({ ok: false, field: 'nonce', reason: 'nonce is unknown, expired or already used' });
    expect(checkedNonces).to.deep.equal([built.nonce]);
    expect(asked).to.deep.equal([]);
  });

  it('draws nonces of 128 random bits in the EIP-4361 alphabet, none sharing a 12-character run with another', function () {
    const nonces = Array.from({ length: 2000 }, generateSignInNonce);
    expect(sharedSubstring(nonces, 12)).to.equal(null);
    expect(new Set(nonces).size).to.equal(nonces.length);
    for (const nonce of nonces) expect(nonce).to.match(/^[0-9a-f]{32}$/);
    expect(buildSignInMessage({ address: account.address, ...expected }).nonce).to.match(/^[0-9a-f]{32}$/);
  });
});
