import { expect } from 'chai';
import { jsonRpc } from '../../../contracts/devnet.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

type Block = { number: string; timestamp: string; hash: string };
const latest = (rpcUrl: string) => jsonRpc<Block>(rpcUrl, 'eth_getBlockByNumber', ['latest', false]);
const nowSeconds = () => Math.floor(Date.now() / 1000);
const STRANGER = '0x00000000000000000000000000000000000a11ce';
const DAY = 86_400;
/**
 * A chain id no other suite uses: in the whole run an earlier suite may still hold the shared 31337 (a harness it did
 * not close), and this suite checks the reuse of a shared devnet, which needs one nobody else holds.
 */
const SUITE_CHAIN = 31391;

describe('test harness: devnets shared by the suites of a run, each suite starting from the fresh post-deploy chain (issue 47)', function () {
  const previous = process.env['TEST_SHARED_DEVNETS'];
  const open: Harness[] = [];
  const harness = async (params: Parameters<typeof createHarness>[0] = {}) => {
    const h = await createHarness({ chainIds: [SUITE_CHAIN], ...params });
    open.push(h);
    return h;
  };

  before(() => {
    process.env['TEST_SHARED_DEVNETS'] = '1';
  });
  after(async () => {
    await Promise.allSettled(open.map((h) => h.close()));
    if (previous === undefined) delete process.env['TEST_SHARED_DEVNETS'];
    else process.env['TEST_SHARED_DEVNETS'] = previous;
  });

  it('a harness does not see what the previous one wrote on the chain: balances, code, blocks, time offset and a pending timestamp are the fresh ones', async function () {
    const first = await harness();
    const rpcUrl = first.chains[0]!.devnet.rpcUrl;
    const fresh = await latest(rpcUrl);
    await jsonRpc(rpcUrl, 'eth_sendTransaction', [
      { from: first.chains[0]!.stack.deployer, to: STRANGER, value: '0xde0b6b3a7640000' },
    ]);
    await jsonRpc(rpcUrl, 'hardhat_setCode', [first.chains[0]!.stack.distributor, '0x00']);
    await jsonRpc(rpcUrl, 'evm_increaseTime', [10 * DAY]);
    await jsonRpc(rpcUrl, 'hardhat_mine', ['0x64']);
    await jsonRpc(rpcUrl, 'evm_setNextBlockTimestamp', [nowSeconds() + 30 * DAY]);
    expect(await jsonRpc<string>(rpcUrl, 'eth_getBalance', [STRANGER, 'latest'])).to.equal('0xde0b6b3a7640000');
    expect(Number((await latest(rpcUrl)).timestamp)).to.be.greaterThan(nowSeconds() + 9 * DAY);
    await first.close();

    const second = await harness();
    expect(second.chains[0]!.devnet.rpcUrl).to.equal(rpcUrl); // the same devnet, reset
    expect(second.chains[0]!.stack).to.deep.equal(first.chains[0]!.stack); // deterministic addresses
    expect(await latest(rpcUrl)).to.deep.equal(fresh);
    expect(await jsonRpc<string>(rpcUrl, 'eth_getBalance', [STRANGER, 'latest'])).to.equal('0x0');
    expect(
      await jsonRpc<string>(rpcUrl, 'eth_getCode', [second.chains[0]!.stack.distributor, 'latest']),
    ).to.have.length.greaterThan(100);
    await jsonRpc(rpcUrl, 'evm_mine');
    const next = Number((await latest(rpcUrl)).timestamp);
    // A fresh devnet runs a few seconds ahead of the wall clock (one second per deploy block), never days.
    expect(next).to.be.within(nowSeconds() - 5, nowSeconds() + 300);
    await second.close();
  });

  it('two harnesses alive at once never share a chain; the second gets devnets of its own with the same addresses', async function () {
    const a = await harness();
    const b = await harness();
    expect(b.chains[0]!.devnet.rpcUrl).to.not.equal(a.chains[0]!.devnet.rpcUrl);
    expect(b.chains[0]!.stack).to.deep.equal(a.chains[0]!.stack);
    await Promise.all([a.close(), b.close()]);
    const own = await harness({ isolatedChains: true });
    const shared = await harness();
    expect(own.chains[0]!.devnet.rpcUrl).to.not.equal(shared.chains[0]!.devnet.rpcUrl);
    expect(shared.chains[0]!.devnet.rpcUrl).to.equal(a.chains[0]!.devnet.rpcUrl);
    await Promise.all([own.close(), shared.close()]);
  });

  it('a suite that stops its shared devnet stops it for real, and the next harness gets a new, working one', async function () {
    const a = await harness();
    await a.chains[0]!.devnet.stop();
    await a.close();
    const b = await harness();
    expect(Number(await jsonRpc<string>(b.chains[0]!.devnet.rpcUrl, 'eth_chainId'))).to.equal(SUITE_CHAIN);
    expect(b.chains[0]!.stack).to.deep.equal(a.chains[0]!.stack);
    expect(b.chains[0]!.devnet.pid).to.not.equal(a.chains[0]!.devnet.pid);
    await b.close();
  });
});
