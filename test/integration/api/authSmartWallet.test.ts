import { expect } from 'chai';
import supertest from 'supertest';
import { createTestClient, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

/** Runtime code answering every call with one 32-byte word whose first 4 bytes are `selector` (an EIP-1271 stand-in). */
const answering = (fourBytes: string): Hex => `0x63${fourBytes}60e01b60005260206000f3`;

describe('wallet sessions: smart-contract wallets (EIP-1271)', function () {
  let h: Harness;
  /** Accepts every signature (isValidSignature magic value for any input), on chain A (31337) only. */
  const wallet = `0x${'12'.repeat(20)}` as Hex;
  const refusingWallet = `0x${'34'.repeat(20)}` as Hex;

  before(async function () {
    h = await createHarness({ chainIds: [31337, 31338] });
    const chainA = createTestClient({ mode: 'hardhat', transport: http(h.chains[0]!.devnet.rpcUrl) });
    await chainA.setCode({ address: wallet, bytecode: answering('1626ba7e') });
    await chainA.setCode({ address: refusingWallet, bytecode: answering('ffffffff') });
  });
  after(async () => h?.close());

  /** The API with SIGN_IN_CHAIN_ID = `signInChainId`: the Chain ID its messages name (same database and chains). */
  const apiSigningOn = (signInChainId: number) =>
    supertest(
      h
        .createApp({
          config: { ...h.config, signIn: { ...h.config.signIn, chainId: signInChainId } },
        })
        .callback(),
    );

  async function attempt(signInChainId: number, address: Hex, chainId?: number) {
    const api = apiSigningOn(signInChainId);
    const nonce = await api.get(`/v4/auth/nonce/${address}`).expect(200);
    expect(nonce.body.message).to.include(`\nChain ID: ${signInChainId}\n`);
    // Signed by an unrelated EOA: only the contract's isValidSignature can vouch for it.
    const signature = await privateKeyToAccount(HARDHAT_TEST_KEYS[0]).signMessage({ message: nonce.body.message });
    return api
      .post('/v4/auth/login')
      .send({ address, message: nonce.body.message, signature, ...(chainId ? { chainId } : {}) });
  }

  it('logs in a contract wallet whose isValidSignature accepts, on the chain its message names (chainId optional)', async function () {
    const res = await attempt(31337, wallet, 31337);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('jwt='))!.split(';')[0]!;
    expect((await h.request().get('/v4/auth/me').set('Cookie', cookie).expect(200)).body.address).to.equal(wallet);
    expect((await attempt(31337, wallet)).status).to.equal(200);
  });

  it('refuses a contract wallet that rejects', async function () {
    const res = await attempt(31337, refusingWallet, 31337);
    expect(res.status).to.equal(401);
    expect(res.body.errors).to.deep.equal([{ field: 'signature', message: 'does not match the address' }]);
  });

  it('checks the signature on the chain the message names: a wallet accepting everything on chain A does not sign in a message for chain B (M2 of #29)', async function () {
    // The body's chainId cannot move the check to chain A.
    const moved = await attempt(31338, wallet, 31337);
    expect(moved.status, JSON.stringify(moved.body)).to.equal(400);
    expect(moved.body.errors).to.deep.equal([
      { field: 'chainId', message: "must be the message's Chain ID 31338, the chain the signature is checked on" },
    ]);
    expect(moved.headers['set-cookie'] ?? []).to.deep.equal([]);
    // Asked on chain B, where the address has no code, the junk signature is refused.
    const onB = await attempt(31338, wallet);
    expect(onB.status, JSON.stringify(onB.body)).to.equal(401);
    expect(onB.body.errors).to.deep.equal([{ field: 'signature', message: 'does not match the address' }]);
  });

  it('refuses a contract wallet when the chain the message names is not configured, naming that chain', async function () {
    const moved = await attempt(1, wallet, 31337);
    expect(moved.status).to.equal(400);
    expect(moved.body.errors[0].field).to.equal('chainId');
    const unconfigured = await attempt(1, wallet);
    expect(unconfigured.status).to.equal(401);
    expect(unconfigured.body.detail).to.match(/chain 1 named in the message is not configured/);
  });
});
