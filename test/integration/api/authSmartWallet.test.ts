import { expect } from 'chai';
import { createTestClient, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

/** Runtime code answering every call with one 32-byte word whose first 4 bytes are `selector` (an EIP-1271 stand-in). */
const answering = (fourBytes: string): Hex => `0x63${fourBytes}60e01b60005260206000f3`;

describe('wallet sessions: smart-contract wallets (EIP-1271)', function () {
  let h: Harness;
  const wallet = `0x${'12'.repeat(20)}` as Hex;
  const refusingWallet = `0x${'34'.repeat(20)}` as Hex;

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    const test = createTestClient({ mode: 'hardhat', transport: http(h.chains[0]!.devnet.rpcUrl) });
    await test.setCode({ address: wallet, bytecode: answering('1626ba7e') }); // isValidSignature magic value
    await test.setCode({ address: refusingWallet, bytecode: answering('ffffffff') });
  });
  after(async () => h?.close());

  async function attempt(address: Hex, chainId?: number) {
    const nonce = await h.request().get(`/v4/auth/nonce/${address}`).expect(200);
    // Signed by an unrelated EOA: only the contract's isValidSignature can vouch for it.
    const signature = await privateKeyToAccount(HARDHAT_TEST_KEYS[0]).signMessage({ message: nonce.body.message });
    return h
      .request()
      .post('/v4/auth/login')
      .send({ address, message: nonce.body.message, signature, ...(chainId ? { chainId } : {}) });
  }

  it('logs in a contract wallet whose isValidSignature accepts, on the given configured chain', async function () {
    const res = await attempt(wallet, 31337);
    expect(res.status).to.equal(200);
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('jwt='))!.split(';')[0]!;
    expect((await h.request().get('/v4/auth/me').set('Cookie', cookie).expect(200)).body.address).to.equal(wallet);
  });

  it('refuses a contract wallet that rejects, and any contract wallet without chainId (EOA check only)', async function () {
    expect((await attempt(refusingWallet, 31337)).status).to.equal(401);
    expect((await attempt(wallet)).status).to.equal(401);
  });
});
