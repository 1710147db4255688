import { expect } from 'chai';
import { createPublicClient, custom, encodeFunctionData, http, keccak256, toHex, type PublicClient } from 'viem';
import {
  deployUniswapV4Manager,
  deployUniswapV4Pool,
  swapUniswapV4,
  type DeployedUniswapV4Manager,
  type DeployedUniswapV4Pool,
  type UniswapV4Amounts,
  uniswapV4PoolManagerAbi,
} from '../../../../contracts/uniswapV4.js';
import { testErc20Abi } from '../../../../contracts/artifacts/index.js';
import { createDevnetClients } from '../../../../contracts/clients.js';
import { readTvl } from '../../../../indexer/fetch/readTvl.js';
import {
  readUniswapV4Tvl,
  UNISWAP_V4_TVL_BOUNDS,
  type UniswapV4TvlBounds,
} from '../../../../indexer/fetch/readUniswapV4Tvl.js';
import type { ChainClient } from '../../../../internal/rpc.js';
import { startFlakyRpcProxy } from '../../../helpers/flakyRpcProxy.js';
import { chainConfigOf } from '../../../helpers/testConfig.js';
import { startTestChains, type TestChain } from '../../../helpers/testChains.js';

const L = 10n ** 21n;

describe('indexer/fetch/readUniswapV4Tvl: Uniswap V4 pools on the real PoolManager (#42)', function () {
  let stop: () => Promise<void>;
  let chain: TestChain;
  let manager: DeployedUniswapV4Manager;
  /** fee 0: the positions' reserves move only by deposits and swaps, so the PoolManager's deltas are the truth. */
  let pool: DeployedUniswapV4Pool;
  let other: DeployedUniswapV4Pool;
  let truth: UniswapV4Amounts;
  /** Every JSON-RPC method the reader's client sent, in order. */
  const calls: string[] = [];
  let chainClient: ChainClient;

  const target = () => ({ rpcUrl: chain.devnet.rpcUrl, chainId: chain.devnet.chainId });
  const opportunity = (p: { poolId: string }) => ({ id: `opp-${p.poolId}`, type: 'UNISWAP_V4', identifier: p.poolId });
  const read = async (p: { poolId: string }, bounds?: UniswapV4TvlBounds) => {
    calls.length = 0;
    return (await readUniswapV4Tvl(chainClient, manager.poolManager, [opportunity(p)], bounds)).get(opportunity(p).id)!;
  };
  /** What each read left out of the truth, in base units (rounding), printed after the suite. */
  const shortfalls: bigint[] = [];
  const amounts = (reading: { tokens: { amount: string }[] }) => reading.tokens.map((t) => BigInt(t.amount));
  /** The read is the truth rounded down per range: never above it, at most a few base units below. */
  const expectTruth = (got: bigint[], expected: UniswapV4Amounts) => {
    shortfalls.push(expected.amount0 - got[0]!, expected.amount1 - got[1]!);
    [expected.amount0, expected.amount1].forEach((want, i) => {
      expect(Number(want - got[i]!), `token${i}: ${want} deposited, ${got[i]} read`).to.be.within(0, 64);
    });
  };

  before(async function () {
    ({
      chains: [chain],
      stop,
    } = (await startTestChains([31337])) as { chains: [TestChain]; stop: () => Promise<void> });
    const [stTst, tlp] = chain.stack.tokens.targets;
    const pts = chain.stack.tokens.rewards[2]!;
    manager = await deployUniswapV4Manager(target());
    pool = await deployUniswapV4Pool({
      ...target(),
      manager,
      tokens: [stTst!.address, tlp!.address],
      fee: 0,
      positions: [
        { tickLower: -600, tickUpper: 600, liquidity: L }, // across the price
        { tickLower: -1200, tickUpper: 1200, liquidity: L / 2n }, // across, overlapping
        { tickLower: 1200, tickUpper: 3000, liquidity: L / 5n }, // entirely above: token0 only
        { tickLower: -3000, tickUpper: -1800, liquidity: (L * 3n) / 10n }, // entirely below: token1 only
        { tickLower: -887220, tickUpper: 887220, liquidity: L / 1000n }, // full range
      ],
    });
    truth = pool.deposited;
    // A second pool in the same singleton sharing stTST: the PoolManager's balance is no pool's.
    other = await deployUniswapV4Pool({
      ...target(),
      manager,
      tokens: [stTst!.address, pts.address],
      positions: [{ tickLower: -60, tickUpper: 60, liquidity: L }],
    });
    const base = http(chain.devnet.rpcUrl, { retryCount: 0 })({});
    const client = createPublicClient({
      transport: custom({
        request: ({ method, params }) => {
          calls.push(method);
          return base.request({ method, params });
        },
      }),
    }) as PublicClient;
    const config = chainConfigOf(chain.devnet, chain.stack, { uniswapV4PoolManager: manager.poolManager });
    chainClient = { chain: config, client };
  });

  after(async () => {
    console.log(`      rounding: reads were ${shortfalls.join(', ')} base units under the deposits`);
    await stop?.();
  });

  it('reads a pool with ranges across, above and below the price as what its positions deposited', async () => {
    expect(truth.amount0 > 0n && truth.amount1 > 0n, 'both tokens deposited').to.equal(true);
    const reading = await read(pool);
    expect(reading.method, reading.detail).to.equal('UNISWAP_V4_POOL');
    expect(reading.tokens.map((t) => t.tokenAddress)).to.deep.equal([
      pool.poolKey.currency0.toLowerCase(),
      pool.poolKey.currency1.toLowerCase(),
    ]);
    expect(reading.tokens.map((t) => t.decimals)).to.deep.equal([18, 18]);
    expectTruth(amounts(reading), truth);
    const { publicClient } = createDevnetClients(target());
    const stTst = chain.stack.tokens.targets[0]!.address;
    const held = (await publicClient.readContract({
      address: stTst,
      abi: testErc20Abi,
      functionName: 'balanceOf',
      args: [manager.poolManager],
    })) as bigint;
    const ofStTst = (p: DeployedUniswapV4Pool) =>
      p.poolKey.currency0 === stTst ? p.deposited.amount0 : p.deposited.amount1;
    expect(held, "the singleton holds both pools' stTST").to.equal(ofStTst(pool) + ofStTst(other));
    // slot0 + liquidity, the 116 bitmap words of spacing 60, the initialized ticks: three eth_calls, and one multicall of the decimals.
    expect(calls.filter((m) => m === 'eth_call')).to.have.length(4);
  });

  it('follows a swap that moves the price across initialized ticks', async () => {
    const before = await read(pool);
    const delta = await swapUniswapV4({ ...target(), pool, zeroForOne: true, amountIn: 5n * 10n ** 19n });
    expect(delta.amount0).to.equal(5n * 10n ** 19n);
    expect(delta.amount1 < 0n, 'token1 paid out').to.equal(true);
    truth = { amount0: truth.amount0 + delta.amount0, amount1: truth.amount1 + delta.amount1 };
    const after = await read(pool);
    expect(after.method).to.equal('UNISWAP_V4_POOL');
    expect(amounts(after)).to.not.deep.equal(amounts(before));
    const [swap] = await createDevnetClients(target()).publicClient.getContractEvents({
      address: manager.poolManager,
      abi: uniswapV4PoolManagerAbi,
      eventName: 'Swap',
      args: { id: pool.poolId },
      fromBlock: 0n,
    });
    const tick = Number((swap!.args as { tick: number }).tick);
    // 4.6e19 token0 take the price to tick -600 (liquidity 1.5e21), the rest stops it in [-1200, -600).
    expect(tick, 'the price left [-600, 600) for [-1200, -600)').to.be.within(-1200, -601);
    expectTruth(amounts(after), truth);
  });

  it('an unknown pool id, or a chain without the PoolManager configured, is NONE', async () => {
    const unknown = { poolId: keccak256(toHex('a pool never initialized')) };
    const reading = await read(unknown);
    expect(reading).to.deep.include({ method: 'NONE', tokens: [] });
    expect(reading.detail).to.match(/no Initialize event/);
    const unconfigured = { ...chainClient, chain: { ...chainClient.chain, uniswapV4PoolManager: undefined } };
    const viaReadTvl = await readTvl(unconfigured, [opportunity(pool)]);
    expect(viaReadTvl.get(opportunity(pool).id)).to.deep.equal({
      method: 'NONE',
      tokens: [],
      reason: 'unsupported-target',
    });
    const configured = await readTvl(chainClient, [opportunity(pool)]);
    expect(configured.get(opportunity(pool).id)!.method).to.equal('UNISWAP_V4_POOL');
  });

  it('a pool whose Initialize log the node refuses to search for is NONE, and read once the node answers', async () => {
    const [stTst, tlp] = chain.stack.tokens.targets;
    const fresh = await deployUniswapV4Pool({
      ...target(),
      manager,
      tokens: [stTst!.address, tlp!.address],
      fee: 500,
      tickSpacing: 10,
      positions: [{ tickLower: -100, tickUpper: 100, liquidity: L }],
    });
    const proxy = await startFlakyRpcProxy(chain.devnet.rpcUrl);
    try {
      const viaProxy: ChainClient = {
        chain: chainClient.chain,
        client: createPublicClient({ transport: http(proxy.url, { retryCount: 0 }) }) as PublicClient,
      };
      proxy.limitLogRange(10);
      const refused = (await readUniswapV4Tvl(viaProxy, manager.poolManager, [opportunity(fresh)])).get(
        opportunity(fresh).id,
      )!;
      expect(refused).to.deep.include({ method: 'NONE', tokens: [] });
      expect(refused.detail).to.match(/^Initialize logs unavailable: .*block range limit of 10/);
      expect(proxy.getLogsCalls()).to.have.length(1);
      proxy.limitLogRange(null);
      const read = (await readUniswapV4Tvl(viaProxy, manager.poolManager, [opportunity(fresh)])).get(
        opportunity(fresh).id,
      )!;
      expect(read.method, read.detail).to.equal('UNISWAP_V4_POOL');
      expectTruth(amounts(read), fresh.deposited);
    } finally {
      await proxy.close();
    }
  });

  it('refuses past its bounds, before reading what lies past them', async () => {
    const fewWords = await read(pool, { ...UNISWAP_V4_TVL_BOUNDS, maxBitmapWords: 100 });
    expect(fewWords).to.deep.include({ method: 'NONE', tokens: [] });
    expect(fewWords.detail).to.equal('tick bitmap of 116 words exceeds the bound of 100');
    expect(
      calls.filter((m) => m === 'eth_call'),
      'slot0 only',
    ).to.have.length(1);
    const fewTicks = await read(pool, { ...UNISWAP_V4_TVL_BOUNDS, maxInitializedTicks: 4 });
    expect(fewTicks.detail).to.equal('9 initialized ticks exceed the bound of 4');
    expect(
      calls.filter((m) => m === 'eth_call'),
      'slot0, then the bitmap',
    ).to.have.length(2);
  });

  it('reads a tick spacing 1 pool, its whole bitmap of 6,932 words in 7 calls', async function () {
    const [stTst, tlp] = chain.stack.tokens.targets;
    const fine = await deployUniswapV4Pool({
      ...target(),
      manager,
      tokens: [stTst!.address, tlp!.address],
      fee: 100,
      tickSpacing: 1,
      positions: [
        { tickLower: -5, tickUpper: 7, liquidity: L },
        { tickLower: -300_001, tickUpper: -200_003, liquidity: L },
        { tickLower: 1, tickUpper: 2, liquidity: L },
      ],
    });
    const started = performance.now();
    const reading = await read(fine);
    const ms = performance.now() - started;
    expect(reading.method, reading.detail).to.equal('UNISWAP_V4_POOL');
    expectTruth(amounts(reading), fine.deposited);
    expect(calls.filter((m) => m === 'eth_call')).to.have.length(1 + 7 + 1 + 1);
    // The per-call gas limit holds a full call of cold slots with room to spare.
    const { publicClient } = createDevnetClients(target());
    const slots = Array.from({ length: UNISWAP_V4_TVL_BOUNDS.slotsPerCall }, (_, i) => keccak256(toHex(i)));
    const gas = await publicClient.estimateGas({
      to: manager.poolManager,
      data: encodeFunctionData({ abi: uniswapV4PoolManagerAbi, functionName: 'extsload', args: [slots] }),
    });
    expect(gas < UNISWAP_V4_TVL_BOUNDS.gasPerCall / 2n, `${gas} gas`).to.equal(true);
    console.log(
      `      spacing-1 pool: 6,932 bitmap words + 6 ticks read in ${ms.toFixed(0)} ms; ${gas} gas per call of ${slots.length} slots`,
    );
  });
});
