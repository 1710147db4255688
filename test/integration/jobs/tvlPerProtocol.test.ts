import { expect } from 'chai';
import { encodeAbiParameters, getContractAddress, parseAbi, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  createCampaigns,
  encodeClammCampaignData,
  encodeErc20CampaignData,
  getLatestTimestamp,
} from '../../../contracts/actions.js';
import { deployAaveV3AToken, type DeployedAaveV3AToken } from '../../../contracts/aaveV3.js';
import { createDevnetClients, HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { deployMorphoBlueMarket, morphoAbi, type DeployedMorphoBlueMarket } from '../../../contracts/morphoBlue.js';
import { deployUniswapV3Pool, swapUniswapV3ExactIn, type DeployedUniswapV3Pool } from '../../../contracts/uniswapV3.js';
import { blockAtOrBefore } from '../../../indexer/store/blocks.js';
import { deployUniswapV4Pool, type DeployedUniswapV4Pool } from '../../../contracts/uniswapV4.js';
import { tokenDbId } from '../../../domain/ids.js';
import { NATIVE_APR_UNKNOWN } from '../../../api/reads/opportunities/serialize.js';
import { indexNames } from '../../../internal/es.js';
import { enqueueOutbox } from '../../../domain/tables/outbox.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const DAY = 86_400;
const erc20 = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function decimals() view returns (uint8)',
]);

/** sqrtPriceX96 and a tick range of ±6000 ticks (spacing 60) around `price` (token1 base units per token0 base unit). */
function around(price: number) {
  const tick = Math.round(Math.log(price) / Math.log(1.0001) / 60) * 60;
  return {
    sqrtPriceX96: BigInt(Math.floor(Math.sqrt(price) * 2 ** 48)) * 2n ** 48n,
    tickLower: tick - 6000,
    tickUpper: tick + 6000,
  };
}

describe('jobs/computeMetrics: TVL per protocol, read from the protocol contracts (#42)', function () {
  let h: Harness;
  let priced: DeployedUniswapV3Pool;
  let halfPriced: DeployedUniswapV3Pool;
  let market: DeployedMorphoBlueMarket;
  let aave: DeployedAaveV3AToken;
  let v4Pool: DeployedUniswapV4Pool;
  // Morpho is the first deployment of a fresh account: its address is known before the chain config is.
  const morphoDeployer = HARDHAT_TEST_KEYS[2];
  const morphoBlue = getContractAddress({ from: privateKeyToAccount(morphoDeployer).address, nonce: 0n });
  // Likewise the Uniswap V4 PoolManager, first deployment of another fresh account.
  const v4Deployer = HARDHAT_TEST_KEYS[1];
  const uniswapV4PoolManager = getContractAddress({ from: privateKeyToAccount(v4Deployer).address, nonce: 0n });
  type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const docs = new Map<string, Doc>();

  before(async function () {
    h = await createHarness({ chainIds: [31337], chainOverrides: { morphoBlue, uniswapV4PoolManager } });
    const { devnet, stack } = h.chains[0]!;
    const { rpcUrl, chainId } = devnet;
    const [rwd, usdc] = stack.tokens.rewards; // priced by their on-chain feeds: $2.5 and $1
    const tlp = stack.tokens.targets[1]!; // never priced
    // RWD (18 decimals) at 2.5 USDCx (6 decimals): 2.5e-12 base units of one per base unit of the other.
    const rwdIsToken0 = rwd!.address.toLowerCase() < usdc!.address.toLowerCase();
    priced = await deployUniswapV3Pool({
      rpcUrl,
      chainId,
      tokens: [rwd!.address, usdc!.address],
      liquidity: 10n ** 18n,
      ...around(rwdIsToken0 ? 2.5e-12 : 1 / 2.5e-12),
    });
    halfPriced = await deployUniswapV3Pool({
      rpcUrl,
      chainId,
      tokens: [rwd!.address, tlp.address],
      liquidity: 10n ** 21n,
    });
    market = await deployMorphoBlueMarket({
      rpcUrl,
      chainId,
      loanToken: usdc!.address,
      collateralToken: rwd!.address,
      supplyAssets: 250_000n * 10n ** 6n,
      deployerKey: morphoDeployer,
    });
    expect(market.morpho).to.equal(morphoBlue);
    // The real AToken over USDCx ($1 by its feed): 40,000 supplied, 5% income since.
    aave = await deployAaveV3AToken({
      rpcUrl,
      chainId,
      underlying: usdc!.address,
      underlyingDecimals: 6,
      supplyAssets: 40_000n * 10n ** 6n,
      normalizedIncome: 105n * 10n ** 25n,
    });
    const v4Range = around(rwdIsToken0 ? 2.5e-12 : 1 / 2.5e-12);
    v4Pool = await deployUniswapV4Pool({
      rpcUrl,
      chainId,
      tokens: [rwd!.address, usdc!.address],
      sqrtPriceX96: v4Range.sqrtPriceX96,
      positions: [
        { tickLower: v4Range.tickLower, tickUpper: v4Range.tickUpper, liquidity: 10n ** 18n },
        { tickLower: v4Range.tickUpper, tickUpper: v4Range.tickUpper + 6000, liquidity: 10n ** 18n },
      ],
      deployerKey: v4Deployer,
    });
    expect(v4Pool.poolManager).to.equal(uniswapV4PoolManager);
    const now = await getLatestTimestamp({ rpcUrl });
    const clamm = (pool: Address) => ({
      rewardToken: rwd!.address,
      amount: 7000n * 10n ** 18n,
      campaignType: 2,
      startTimestamp: now - 3600,
      duration: 7 * DAY,
      campaignData: encodeClammCampaignData({
        pool,
        weightFees: 2000,
        weightToken0: 4000,
        weightToken1: 4000,
        isOutOfRangeIncentivized: false,
      }),
    });
    await createCampaigns({
      rpcUrl,
      chainId,
      stack,
      campaigns: [
        clamm(priced.pool),
        clamm(halfPriced.pool),
        // A CLAMM campaign naming a token, not a pool (priced, with a supply): no token read stands in.
        { ...clamm(rwd!.address), startTimestamp: now - 3599 },
        {
          ...clamm(priced.pool),
          campaignType: 7,
          campaignData: encodeAbiParameters([{ type: 'bytes32' }], [market.marketId]),
        },
        {
          ...clamm(priced.pool),
          campaignType: 1,
          campaignData: encodeErc20CampaignData({ targetToken: aave.aToken }),
        },
        {
          ...clamm(priced.pool),
          campaignType: 13,
          campaignData: encodeAbiParameters([{ type: 'bytes32' }], [v4Pool.poolId]),
        },
      ],
    });
    for (const job of ['blocks', 'campaigns', 'tokens', 'prices', 'metrics', 'publish'])
      expect((await h.runJob(job)).status, job).to.equal('success');
    await h.refresh();
    const index = indexNames(h.config.esIndexPrefix, 'opportunities').read;
    for (const hit of (await h.deps.es.search<Doc>({ index, size: 20 })).hits.hits)
      docs.set(String(hit._source!['identifier']), hit._source!);
  });

  after(async () => {
    await h?.close();
  });

  /** Independent read: the pool's balance of each token × the price GET /v4/prices serves. */
  async function independentTvl(pool: DeployedUniswapV3Pool) {
    const { devnet } = h.chains[0]!;
    const { publicClient } = createDevnetClients({ rpcUrl: devnet.rpcUrl, chainId: devnet.chainId });
    const prices = (await h.request().get('/v4/prices').query({ items: 100 }).expect(200)).body as {
      tokenId: string;
      price: number;
    }[];
    let total = 0;
    const perToken: Record<string, number> = {};
    for (const token of [pool.token0, pool.token1]) {
      const [balance, decimals] = await Promise.all([
        publicClient.readContract({ address: token, abi: erc20, functionName: 'balanceOf', args: [pool.pool] }),
        publicClient.readContract({ address: token, abi: erc20, functionName: 'decimals' }),
      ]);
      const price = prices.find((p) => p.tokenId === tokenDbId(devnet.chainId, token))!.price;
      perToken[token.toLowerCase()] = (Number(balance) / 10 ** decimals) * price;
      total += perToken[token.toLowerCase()]!;
    }
    return { total, perToken };
  }

  it('a Uniswap V3 pool (CLAMM) is worth its balances of token0 and token1 × their prices, one TOKEN breakdown each', async function () {
    const doc = docs.get(priced.pool.toLowerCase())!;
    expect(doc, 'the pool is an opportunity').to.not.equal(undefined);
    const expected = await independentTvl(priced);
    expect(expected.total, 'the position holds both tokens').to.be.greaterThan(100_000);
    expect(Object.values(expected.perToken).every((v) => v > 0)).to.equal(true);
    expect(doc['tvl']).to.be.closeTo(expected.total, expected.total * 0.005);
    expect(doc['tvlRecord'].breakdowns.map((b: { identifier: string }) => b.identifier)).to.have.members([
      priced.token0.toLowerCase(),
      priced.token1.toLowerCase(),
    ]);
    for (const b of doc['tvlRecord'].breakdowns as { identifier: string; type: string; value: number }[]) {
      expect(b.type).to.equal('TOKEN');
      expect(b.value).to.be.closeTo(expected.perToken[b.identifier]!, expected.perToken[b.identifier]! * 0.005);
    }
    expect(doc['tvlRecord']).to.not.have.property('unpricedTokens');
    expect(doc['apr'], 'a known TVL gives the pool an APR').to.be.greaterThan(0);
    const { rows } = await h.apiPg.query<{ inputs: { tvl: { method: string } } }>(
      'SELECT inputs FROM opportunity_metrics WHERE opportunity_id = $1',
      [doc['id']],
    );
    expect(rows[0]!.inputs.tvl.method).to.equal('UNISWAP_V3_POOL');
    const served = (await h.request().get(`/v4/opportunities/${doc['id']}`).expect(200)).body;
    expect(served.tvl).to.equal(doc['tvl']);
    expect(served.tvlRecord.breakdowns).to.have.length(2);
    expect(served.nativeApr, "the pool's fees of the last day cannot be read yet").to.equal(0);
    // Stored by the metrics job: unknown (0) with the reason beside it, never a known 0 (#42): the
    // devnet's stored blocks are all younger than a day, so there is no day-old fee growth to compare with.
    expect(served.nativeAprRecord).to.include({ value: 0, status: 'no-history' });
    // Its history snapshot keeps the status: the native-APR history leaves it out, never a 0.
    const snaps = await h.apiPg.query<{ native_apr: number; native_apr_status: string }>(
      'SELECT native_apr, native_apr_status FROM opportunity_snapshots WHERE opportunity_id = $1',
      [doc['id']],
    );
    expect(snaps.rows.length).to.be.greaterThan(0);
    for (const r of snaps.rows) expect(r).to.deep.equal({ native_apr: 0, native_apr_status: 'no-history' });
    expect(served.nativeAprRecord.description)
      .to.match(/^Unknown/)
      .and.not.equal(NATIVE_APR_UNKNOWN);
  });

  it('a pool with an unpriced token has an unknown TVL that names the token, never the priced half', async function () {
    const doc = docs.get(halfPriced.pool.toLowerCase())!;
    const tlp = h.chains[0]!.stack.tokens.targets[1]!.address;
    // #42: unknown is null in the document (was 0), so no filter, bin or sum counts it as nothing.
    expect([doc['tvl'], doc['apr'], doc['tvlRecord'].breakdowns]).to.deep.equal([null, null, []]);
    expect(doc['tvlRecord'].unpricedTokens).to.deep.equal([tokenDbId(31337, tlp)]);
    expect(doc['tvlRecord'].status).to.equal('unpriced');
    const served = (await h.request().get(`/v4/opportunities/${doc['id']}`).expect(200)).body;
    expect(served.tvlRecord.unpricedTokens).to.deep.equal([tokenDbId(31337, tlp)]);
    // The record keeps the contract's numbers: 0 with the reason beside it.
    expect([served.tvl, served.apr, served.tvlRecord.status]).to.deep.equal([0, 0, 'unpriced']);
    const { rows } = await h.apiPg.query<{ tvl: number | null; tvl_status: string }>(
      'SELECT tvl, tvl_status FROM opportunity_metrics WHERE opportunity_id = $1',
      [doc['id']],
    );
    expect(rows[0]).to.deep.equal({ tvl: null, tvl_status: 'unpriced' });
  });

  it('a CLAMM identifier that is not a pool (an ERC20) has no TVL (method NONE), never its token supply', async function () {
    const rwd = h.chains[0]!.stack.tokens.rewards[0]!.address.toLowerCase();
    const doc = docs.get(rwd)!;
    expect(doc, 'the token is the opportunity identifier').to.not.equal(undefined);
    // Unknown, not 0: null in the document (the served record says 0 with tvlRecord.status beside it).
    expect([doc['type'], doc['tvl'], doc['apr'], doc['tvlRecord'].breakdowns, doc['tvlRecord'].status]).to.deep.equal([
      'CLAMM',
      null,
      null,
      [],
      'read-failed',
    ]);
    const { rows } = await h.deps.pg.query<{ method: string }>(
      `SELECT m.inputs->'tvl'->>'method' AS method FROM opportunity_metrics m JOIN opportunities o ON o.id = m.opportunity_id
       WHERE o.type = 'CLAMM' AND o.identifier = $1`,
      [rwd],
    );
    expect(rows.map((r) => r.method)).to.deep.equal(['NONE']);
  });

  it('a Morpho Blue market (MORPHO, identifier its id) is worth market(id).totalSupplyAssets of its loan token × its price', async function () {
    const doc = docs.get(market.marketId.toLowerCase())!;
    expect(doc, 'the market id is the opportunity identifier').to.not.equal(undefined);
    const { devnet } = h.chains[0]!;
    const { publicClient } = createDevnetClients({ rpcUrl: devnet.rpcUrl, chainId: devnet.chainId });
    const [supplied] = (await publicClient.readContract({
      address: market.morpho,
      abi: morphoAbi,
      functionName: 'market',
      args: [market.marketId],
    })) as readonly bigint[];
    const loan = market.marketParams.loanToken;
    const prices = (await h.request().get('/v4/prices').query({ items: 100 }).expect(200)).body as {
      tokenId: string;
      price: number;
    }[];
    const price = prices.find((p) => p.tokenId === tokenDbId(devnet.chainId, loan))!.price;
    const expected = (Number(supplied) / 1e6) * price;
    expect(expected).to.be.closeTo(250_000, 1);
    expect(doc['tvl']).to.be.closeTo(expected, expected * 0.005);
    expect(doc['tvlRecord'].breakdowns).to.have.length(1);
    expect(doc['tvlRecord'].breakdowns[0]).to.include({ identifier: loan.toLowerCase(), type: 'TOKEN' });
    expect(doc['apr']).to.be.greaterThan(0);
    const { rows } = await h.apiPg.query<{ inputs: { tvl: { method: string } } }>(
      'SELECT inputs FROM opportunity_metrics WHERE opportunity_id = $1',
      [doc['id']],
    );
    expect(rows[0]!.inputs.tvl.method).to.equal('MORPHO_BLUE_SUPPLY');
    // No borrows: the IRM's rate times a utilization of 0 is a known 0 (status ok), not an unknown one (#42).
    const served = (await h.request().get(`/v4/opportunities/${doc['id']}`).expect(200)).body;
    expect(served.nativeAprRecord).to.include({ value: 0, status: 'ok' });
    expect(served.totalApr).to.be.closeTo(served.apr + served.nativeApr, 1e-9);
  });

  it('an Aave V3 aToken (ERC20 holding) is worth its totalSupply in its underlying × the underlying price, one TOKEN breakdown in the underlying', async function () {
    const doc = docs.get(aave.aToken.toLowerCase())!;
    expect(doc, 'the aToken is an opportunity').to.not.equal(undefined);
    const usdc = h.chains[0]!.stack.tokens.rewards[1]!.address.toLowerCase();
    // 40,000 USDCx supplied × 1.05 income × $1.
    expect(doc['tvl']).to.be.closeTo(42_000, 1e-6);
    expect(doc['tvlRecord'].breakdowns).to.deep.equal([{ identifier: usdc, type: 'TOKEN', value: doc['tvl'] }]);
    expect(doc['tvlRecord'].status).to.equal('ok');
    expect(doc['apr']).to.be.greaterThan(0);
    const { rows } = await h.apiPg.query<{ inputs: { tvl: { method: string } } }>(
      'SELECT inputs FROM opportunity_metrics WHERE opportunity_id = $1',
      [doc['id']],
    );
    expect(rows[0]!.inputs.tvl.method).to.equal('AAVE_V3_ATOKEN');
  });

  it('a Uniswap V4 pool (UNISWAP_V4, identifier its id) is worth the reserves of its ranges × their prices, one TOKEN breakdown each', async function () {
    const doc = docs.get(v4Pool.poolId.toLowerCase())!;
    expect(doc, 'the pool id is the opportunity identifier').to.not.equal(undefined);
    const { devnet } = h.chains[0]!;
    const prices = (await h.request().get('/v4/prices').query({ items: 100 }).expect(200)).body as {
      tokenId: string;
      price: number;
    }[];
    // Independent: what the positions transferred into the PoolManager (no swap since) × the served prices.
    const { poolKey, deposited } = v4Pool;
    const perToken: Record<string, number> = {};
    for (const [token, amount] of [
      [poolKey.currency0, deposited.amount0],
      [poolKey.currency1, deposited.amount1],
    ] as const) {
      const decimals = h.chains[0]!.stack.tokens.rewards.find((r) => r.address === token)!.decimals;
      const price = prices.find((p) => p.tokenId === tokenDbId(devnet.chainId, token))!.price;
      perToken[token.toLowerCase()] = (Number(amount) / 10 ** decimals) * price;
    }
    const total = Object.values(perToken).reduce((a, b) => a + b, 0);
    expect(
      Object.values(perToken).every((v) => v > 0),
      'the range above the price adds token0 only',
    ).to.equal(true);
    expect(doc['tvl']).to.be.closeTo(total, total * 1e-9);
    for (const b of doc['tvlRecord'].breakdowns as { identifier: string; type: string; value: number }[]) {
      expect(b.type).to.equal('TOKEN');
      expect(b.value).to.be.closeTo(perToken[b.identifier]!, perToken[b.identifier]! * 1e-9);
    }
    expect(doc['tvlRecord'].breakdowns).to.have.length(2);
    expect(doc['apr']).to.be.greaterThan(0);
    const { rows } = await h.apiPg.query<{ inputs: { tvl: { method: string } } }>(
      'SELECT inputs FROM opportunity_metrics WHERE opportunity_id = $1',
      [doc['id']],
    );
    expect(rows[0]!.inputs.tvl.method).to.equal('UNISWAP_V4_POOL');
  });

  it("names each pool and market after its tokens, lists them, and links its protocol's page and contract (#42)", async function () {
    const slug = 'test-chain-31337';
    const symbolOf = (address: string) => {
      const { rewards, targets } = h.chains[0]!.stack.tokens;
      return [...rewards, ...targets].find((t) => t.address.toLowerCase() === address.toLowerCase())!.symbol;
    };
    const v3 = docs.get(priced.pool.toLowerCase())!;
    expect(v3['name']).to.equal(`Provide liquidity to ${symbolOf(priced.token0)}-${symbolOf(priced.token1)} 0.3%`);
    expect(v3['tokens'].map((t: { address: string }) => t.address)).to.deep.equal(
      [priced.token0, priced.token1].map((a) => a.toLowerCase()),
    );
    expect(v3['explorerAddress']).to.equal(priced.pool.toLowerCase());
    expect(v3['depositUrl']).to.equal(`https://app.uniswap.invalid/explore/pools/${slug}/${priced.pool.toLowerCase()}`);
    // TLP is in no campaign and no chain config: the metrics job stored its row to name the pool.
    const half = docs.get(halfPriced.pool.toLowerCase())!;
    expect(half['name']).to.match(/^Provide liquidity to (RWD-TLP|TLP-RWD) 0\.3%$/);

    const v4 = docs.get(v4Pool.poolId.toLowerCase())!;
    const { currency0, currency1 } = v4Pool.poolKey;
    expect(v4['name']).to.equal(`Provide liquidity to ${symbolOf(currency0)}-${symbolOf(currency1)} 0.3%`);
    expect(v4['tokens'].map((t: { address: string }) => t.address)).to.deep.equal([
      currency0.toLowerCase(),
      currency1.toLowerCase(),
    ]);
    expect(v4['explorerAddress'], 'a pool id is no address: the PoolManager is').to.equal(
      uniswapV4PoolManager.toLowerCase(),
    );
    expect(v4['depositUrl']).to.equal(
      `https://app.uniswap.invalid/explore/pools/${slug}/${v4Pool.poolId.toLowerCase()}`,
    );

    const morpho = docs.get(market.marketId.toLowerCase())!;
    const { loanToken, collateralToken } = market.marketParams;
    expect(morpho['name']).to.equal(
      `Supply ${symbolOf(loanToken)} to the ${symbolOf(loanToken)}/${symbolOf(collateralToken)} market (LLTV 86%)`,
    );
    expect(morpho['tokens'].map((t: { address: string }) => t.address)).to.deep.equal([
      loanToken.toLowerCase(),
      collateralToken.toLowerCase(),
    ]);
    expect(morpho['explorerAddress']).to.equal(morphoBlue.toLowerCase());
    expect(morpho['depositUrl'], 'the Morpho campaign data carries no url').to.equal(
      `https://app.morpho.invalid/${slug}/market/${market.marketId.toLowerCase()}`,
    );
    // Served as stored, searchable by a token of the market, and named alike in previous configurations.
    const served = (await h.request().get(`/v4/opportunities/${morpho['id']}`).expect(200)).body;
    expect([served.name, served.depositUrl, served.explorerAddress]).to.deep.equal([
      morpho['name'],
      morpho['depositUrl'],
      morpho['explorerAddress'],
    ]);
    const found = (
      await h
        .request()
        .get('/v4/opportunities')
        .query({ search: `${symbolOf(collateralToken)} market`, type: 'MORPHO' })
        .expect(200)
    ).body as { id: string }[];
    expect(found.map((o) => o.id)).to.deep.equal([morpho['id']]);
  });

  it('re-projects an opportunity once what it stands on becomes known, its figures unchanged (#42)', async function () {
    const id = String(docs.get(v4Pool.poolId.toLowerCase())!['id']);
    const index = indexNames(h.config.esIndexPrefix, 'opportunities').read;
    const read = async () => (await h.deps.es.get<Doc>({ index, id }))._source!;
    // As before the first metrics run: the abbreviated pool id, no contract to show.
    await h.deps.pg.query('DELETE FROM opportunity_underlying WHERE opportunity_id = $1', [id]);
    await enqueueOutbox(h.deps.pg, 'opportunity', [id]);
    expect((await h.runJob('publish')).status).to.equal('success');
    await h.refresh();
    const before = await read();
    expect(before['name']).to.equal(`Provide liquidity to ${v4Pool.poolId.slice(0, 6)}…${v4Pool.poolId.slice(-4)}`);
    expect(before['explorerAddress']).to.equal('');
    for (const job of ['metrics', 'publish']) expect((await h.runJob(job)).status, job).to.equal('success');
    await h.refresh();
    const after = await read();
    expect(after['name']).to.match(/^Provide liquidity to \S+-\S+ 0\.3%$/);
    expect(after['explorerAddress']).to.equal(uniswapV4PoolManager.toLowerCase());
    expect(after['tvl'], 'same figures: the new underlying alone queued it').to.equal(before['tvl']);
  });

  // Last: it moves the devnet a day ahead.
  it('a Uniswap V3 pool a day later: its native APR is its LP fees of the day × prices / its TVL × 365 (UNISWAP_V3_FEES)', async function () {
    const { devnet } = h.chains[0]!;
    const { rpcUrl, chainId } = devnet;
    const { publicClient } = createDevnetClients({ rpcUrl, chainId });
    await publicClient.request({ method: 'evm_increaseTime' as never, params: [DAY + 60] as never });
    const decimals = await Promise.all(
      [priced.token0, priced.token1].map((address) =>
        publicClient.readContract({ address, abi: erc20, functionName: 'decimals' }),
      ),
    );
    // A 1/2000 of a whole token each way, a few times: in range, and the pool's only swaps.
    const paidIn = [0n, 0n];
    for (const zeroForOne of [true, false, true, false]) {
      const amountIn = 10n ** BigInt(decimals[zeroForOne ? 0 : 1]!) * 5n;
      await swapUniswapV3ExactIn({ rpcUrl, chainId, minter: priced.minter, pool: priced.pool, zeroForOne, amountIn });
      paidIn[zeroForOne ? 0 : 1]! += amountIn;
    }
    for (const job of ['prices', 'metrics', 'publish']) expect((await h.runJob(job)).status, job).to.equal('success');
    await h.refresh();
    const id = docs.get(priced.pool.toLowerCase())!['id'];
    const served = (await h.request().get(`/v4/opportunities/${id}`).expect(200)).body;
    expect(served.nativeAprRecord, JSON.stringify(served.nativeAprRecord)).to.include({ status: 'ok' });
    // Independently: 0.3 % of each input × its served price, over the TVL read independently, per year.
    const head = await publicClient.getBlock({ blockTag: 'latest' });
    const past = (await blockAtOrBefore(h.deps.pg, chainId, Number(head.timestamp) - DAY))!;
    const elapsed = Number(head.timestamp) - past.timestamp;
    expect(elapsed).to.be.within(DAY, DAY + 600);
    const prices = (await h.request().get('/v4/prices').query({ items: 100 }).expect(200)).body as {
      tokenId: string;
      price: number;
    }[];
    const feesUsd = [priced.token0, priced.token1].reduce((sum, token, i) => {
      const price = prices.find((p) => p.tokenId === tokenDbId(chainId, token))!.price;
      return sum + ((Number(paidIn[i]!) * 0.003) / 10 ** decimals[i]!) * price;
    }, 0);
    const { total: tvl } = await independentTvl(priced);
    expect(served.tvl).to.be.closeTo(tvl, tvl * 1e-6);
    const expected = ((feesUsd / tvl) * 365 * DAY * 100) / elapsed;
    expect(expected).to.be.greaterThan(0);
    expect(served.nativeApr).to.be.closeTo(expected, expected * 1e-4);
    expect(served.nativeAprRecord.value).to.equal(served.nativeApr);
    expect(served.totalApr).to.be.closeTo(served.apr + served.nativeApr, 1e-9);
    // The pool with an unpriced token: its fees were read, but cannot be valued: unknown, never 0.
    const half = docs.get(halfPriced.pool.toLowerCase())!['id'];
    const unpriced = (await h.request().get(`/v4/opportunities/${half}`).expect(200)).body;
    expect(unpriced.nativeAprRecord).to.include({ value: 0, status: 'unpriced' });
    expect(unpriced.nativeAprRecord.description).to.match(/^Unknown/);
  });
});
