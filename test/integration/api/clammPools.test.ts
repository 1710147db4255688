import { expect } from 'chai';
import { getContractAddress, parseAbi, zeroAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  createCampaigns,
  encodeClammCampaignData,
  getLatestTimestamp,
  overrideCampaign,
} from '../../../contracts/actions.js';
import { createDevnetClients, HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { deployUniswapV3Pool, uniswapV3PoolAbi, type DeployedUniswapV3Pool } from '../../../contracts/uniswapV3.js';
import { deployUniswapV4Pool, type DeployedUniswapV4Pool } from '../../../contracts/uniswapV4.js';
import { encodeAbiParameters } from 'viem';
import { signSession } from '../../../api/identity/jwt.js';
import { campaignDbId } from '../../../domain/ids.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const erc20 = parseAbi(['function symbol() view returns (string)', 'function decimals() view returns (uint8)']);
const GHOST_POOL = `0x${'ee'.repeat(20)}`;

type Pool = Record<string, unknown> & { campaignIds: string[] };

/**
 * GET /v4/clamm/pools/… (#46, the hosted `clamm/pools` shape) against real Uniswap V3 pools and a real
 * Uniswap V4 pool on a devnet, with CLAMM and UNISWAP_V4 campaigns on them (some private), after the
 * blocks, campaigns, tokens, prices and metrics jobs: every pool field is checked against the pool's
 * own contracts read directly from the node.
 */
describe('GET /v4/clamm/pools: concentrated-liquidity pools with their campaigns', function () {
  let h: Harness;
  let poolA: DeployedUniswapV3Pool; // public campaigns and one private
  let poolB: DeployedUniswapV3Pool; // a private campaign only
  let v4: DeployedUniswapV4Pool;
  let creator: string;
  const ids: Record<string, string> = {};
  const onChain: Record<string, { campaignId: Hex; startTimestamp: number; duration: number }> = {};
  const v4Deployer = HARDHAT_TEST_KEYS[1];
  const uniswapV4PoolManager = getContractAddress({ from: privateKeyToAccount(v4Deployer).address, nonce: 0n });
  const as = (address: string) => ({
    Cookie: `jwt=${signSession({ secret: h.config.jwtSecret, address, tier: 0 }).token}`,
  });
  const pools = async (path: string, query: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    (await h.request().get(path).query(query).set(headers).expect(200)).body as Record<string, Pool>;

  before(async function () {
    h = await createHarness({ chainIds: [31337], chainOverrides: { uniswapV4PoolManager } });
    const { devnet, stack } = h.chains[0]!;
    const { rpcUrl, chainId } = devnet;
    const [rwd, usdc] = stack.tokens.rewards;
    const tlp = stack.tokens.targets[1]!;
    poolA = await deployUniswapV3Pool({
      rpcUrl,
      chainId,
      tokens: [rwd!.address, usdc!.address],
      liquidity: 10n ** 18n,
    });
    poolB = await deployUniswapV3Pool({
      rpcUrl,
      chainId,
      tokens: [rwd!.address, tlp.address],
      fee: 500,
      liquidity: 10n ** 18n,
    });
    v4 = await deployUniswapV4Pool({
      rpcUrl,
      chainId,
      tokens: [rwd!.address, usdc!.address],
      fee: 500,
      tickSpacing: 10,
      positions: [{ tickLower: -600, tickUpper: 600, liquidity: 10n ** 18n }],
      deployerKey: v4Deployer,
    });
    expect(v4.poolManager).to.equal(uniswapV4PoolManager);
    const now = await getLatestTimestamp({ rpcUrl });
    const clamm = (pool: Address, i: number) => ({
      rewardToken: rwd!.address,
      amount: 7000n * 10n ** 18n,
      campaignType: 2,
      startTimestamp: now - 3600 + i,
      duration: 7 * 86_400,
      campaignData: encodeClammCampaignData({
        pool,
        weightFees: 2000,
        weightToken0: 4000,
        weightToken1: 4000,
        isOutOfRangeIncentivized: false,
      }),
    });
    const created = await createCampaigns({
      rpcUrl,
      chainId,
      stack,
      campaigns: [
        clamm(poolA.pool, 0),
        clamm(poolA.pool, 1),
        clamm(poolA.pool, 2),
        clamm(poolB.pool, 3),
        {
          ...clamm(poolA.pool, 4),
          campaignType: 13,
          campaignData: encodeAbiParameters([{ type: 'bytes32' }], [v4.poolId]),
        },
        // A CLAMM campaign naming a token, not a pool: no pool key, never listed as a pool.
        clamm(rwd!.address, 5),
      ],
    });
    ['a1', 'a2', 'aPrivate', 'bPrivate', 'v4', 'token'].forEach((name, i) => {
      ids[name] = campaignDbId(chainId, created.campaignIds[i]!);
      const c = created.campaigns[i]!;
      onChain[name] = { campaignId: c.campaignId, startTimestamp: c.startTimestamp, duration: c.duration };
    });
    creator = created.campaigns[0]!.creator.toLowerCase();
    for (const job of ['blocks', 'campaigns', 'tokens', 'prices', 'metrics'])
      expect((await h.runJob(job)).status, job).to.equal('success');
    for (const name of ['aPrivate', 'bPrivate'])
      await h
        .request()
        .patch(`/v4/campaigns/${ids[name]}/privacy`)
        .set(as(creator))
        .send({ isPrivate: true, recipientsCanView: false })
        .expect(200);
  });

  after(async () => h?.close());

  /** A V3 pool as the hosted shape describes it, read from the pool and its tokens on the node. */
  async function onChainV3(pool: Address) {
    const { devnet } = h.chains[0]!;
    const { publicClient } = createDevnetClients({ rpcUrl: devnet.rpcUrl, chainId: devnet.chainId });
    const read = (functionName: 'token0' | 'token1' | 'fee' | 'tickSpacing') =>
      publicClient.readContract({ address: pool, abi: uniswapV3PoolAbi, functionName }) as Promise<unknown>;
    const [t0, t1, fee, tickSpacing] = await Promise.all([
      read('token0'),
      read('token1'),
      read('fee'),
      read('tickSpacing'),
    ]);
    const meta = async (token: Address) =>
      Promise.all([
        publicClient.readContract({ address: token, abi: erc20, functionName: 'symbol' }),
        publicClient.readContract({ address: token, abi: erc20, functionName: 'decimals' }),
      ]);
    const [[s0, d0], [s1, d1]] = await Promise.all([meta(t0 as Address), meta(t1 as Address)]);
    return {
      chainId: 31337,
      poolId: pool.toLowerCase(),
      protocol: 'uniswap-v3',
      currency0: String(t0).toLowerCase(),
      currency1: String(t1).toLowerCase(),
      decimalsCurrency0: d0,
      decimalsCurrency1: d1,
      symbolCurrency0: s0,
      symbolCurrency1: s1,
      lpFee: Number(fee),
      tickSpacing: Number(tickSpacing),
      hooks: zeroAddress,
    };
  }

  it('lists the pools with a visible campaign, each with its key as the chain has it and its campaigns', async function () {
    const body = await pools('/v4/clamm/pools/31337');
    const a = poolA.pool.toLowerCase();
    const v4Id = v4.poolId.toLowerCase();
    expect(Object.keys(body)).to.deep.equal([a, v4Id].sort());
    const { campaignIds, opportunityId, ...key } = body[a]!;
    expect(key).to.deep.equal(await onChainV3(poolA.pool));
    expect(campaignIds).to.deep.equal([ids['a1']!, ids['a2']!].sort());
    expect(opportunityId).to.be.a('string');
    // The opportunity is the one GET /v4/opportunities serves for the pool, with the same campaigns.
    const opp = (await h.request().get(`/v4/opportunities/${opportunityId}`).expect(200)).body;
    expect(opp.identifier.toLowerCase()).to.equal(a);
    const { campaignIds: v4Campaigns, opportunityId: _v4Opp, ...v4Key } = body[v4Id]!;
    const [c0, c1] = [v4.poolKey.currency0.toLowerCase(), v4.poolKey.currency1.toLowerCase()];
    const { devnet } = h.chains[0]!;
    const { publicClient } = createDevnetClients({ rpcUrl: devnet.rpcUrl, chainId: devnet.chainId });
    const symbol = (t: string) => publicClient.readContract({ address: t as Hex, abi: erc20, functionName: 'symbol' });
    const decimals = (t: string) =>
      publicClient.readContract({ address: t as Hex, abi: erc20, functionName: 'decimals' });
    expect(v4Key).to.deep.equal({
      chainId: 31337,
      poolId: v4Id,
      protocol: 'uniswap-v4',
      currency0: c0,
      currency1: c1,
      decimalsCurrency0: await decimals(c0),
      decimalsCurrency1: await decimals(c1),
      symbolCurrency0: await symbol(c0),
      symbolCurrency1: await symbol(c1),
      lpFee: 500,
      tickSpacing: 10,
      hooks: zeroAddress,
    });
    expect(v4Campaigns).to.deep.equal([ids['v4']!]);
    expect(JSON.stringify(body), 'no private campaign is named').to.not.include(ids['aPrivate']!);
  });

  it('counts a private campaign only for who may see it, and only with showPrivate=true', async function () {
    const a = poolA.pool.toLowerCase();
    const b = poolB.pool.toLowerCase();
    const stranger = as(`0x${'77'.repeat(20)}`);
    for (const headers of [{}, stranger, as(creator)]) {
      const body = await pools('/v4/clamm/pools/31337', {}, headers);
      expect(Object.keys(body)).to.not.include(b);
      expect(body[a]!.campaignIds).to.not.include(ids['aPrivate']);
    }
    const strangerOptIn = await pools('/v4/clamm/pools/31337', { showPrivate: true }, stranger);
    expect(Object.keys(strangerOptIn)).to.not.include(b);
    const own = await pools('/v4/clamm/pools/31337', { showPrivate: true }, as(creator));
    expect(own[a]!.campaignIds).to.deep.equal([ids['a1']!, ids['a2']!, ids['aPrivate']!].sort());
    const { campaignIds, opportunityId: _, ...key } = own[b]!;
    expect(key).to.deep.equal(await onChainV3(poolB.pool));
    expect(key['lpFee']).to.equal(500);
    expect(campaignIds).to.deep.equal([ids['bPrivate']!]);
    // One pool of only hidden campaigns answers as a pool that does not exist.
    for (const headers of [{}, stranger]) {
      const hidden = await h.request().get(`/v4/clamm/pools/31337/${b}`).set(headers);
      const ghost = await h.request().get(`/v4/clamm/pools/31337/${GHOST_POOL}`).set(headers);
      expect([hidden.status, hidden.body]).to.deep.equal([ghost.status, ghost.body]);
      expect(hidden.body).to.deep.equal({});
    }
  });

  it('one pool by id, and the pools of one protocol', async function () {
    const a = poolA.pool.toLowerCase();
    const v4Id = v4.poolId.toLowerCase();
    const all = await pools('/v4/clamm/pools/31337');
    expect(await pools(`/v4/clamm/pools/31337/${a}`)).to.deep.equal({ [a]: all[a] });
    expect(await pools(`/v4/clamm/pools/31337/0x${a.slice(2).toUpperCase()}`)).to.deep.equal({ [a]: all[a] });
    expect(await pools(`/v4/clamm/pools/31337/${v4Id}`)).to.deep.equal({ [v4Id]: all[v4Id] });
    expect(await pools('/v4/clamm/pools/protocol/31337/uniswap-v3')).to.deep.equal({ [a]: all[a] });
    expect(await pools('/v4/clamm/pools/protocol/31337/uniswap-v4/')).to.deep.equal({ [v4Id]: all[v4Id] });
    expect(await pools(`/v4/clamm/pools/protocol/31337/uniswap-v4/${v4Id}`)).to.deep.equal({ [v4Id]: all[v4Id] });
    expect(await pools(`/v4/clamm/pools/protocol/31337/uniswap-v3/${v4Id}`)).to.deep.equal({});
  });

  it('pages through the pools in pool id order', async function () {
    const all = Object.keys(await pools('/v4/clamm/pools/31337/'));
    expect(all).to.have.length(2);
    const pages = await Promise.all([0, 1, 2].map((page) => pools('/v4/clamm/pools/31337', { items: 1, page })));
    expect(pages.map((p) => Object.keys(p))).to.deep.equal([[all[0]], [all[1]], []]);
  });

  it('refuses bad input with a 400 naming the field', async function () {
    const cases: [string, Record<string, unknown>, string][] = [
      ['/v4/clamm/pools/4242', {}, 'chainId'],
      ['/v4/clamm/pools/abc', {}, 'chainId'],
      ['/v4/clamm/pools/31337/0x1234', {}, 'poolId'],
      ['/v4/clamm/pools/protocol/31337/sushiswap', {}, 'protocol'],
      ['/v4/clamm/pools/31337', { items: 0 }, 'items'],
      ['/v4/clamm/pools/31337', { sort: 'tvl' }, 'sort'],
    ];
    for (const [path, query, field] of cases) {
      const res = await h.request().get(path).query(query).expect(400);
      expect(res.headers['content-type']).to.match(/application\/problem\+json/);
      expect(JSON.stringify(res.body), `${path} ${JSON.stringify(query)}`).to.include(field);
    }
  });
  it('follows an override that moves a campaign to another pool (the pool answers with it, the old one without)', async function () {
    const { devnet, stack } = h.chains[0]!;
    const a = poolA.pool.toLowerCase();
    const b = poolB.pool.toLowerCase();
    await overrideCampaign({
      rpcUrl: devnet.rpcUrl,
      chainId: devnet.chainId,
      stack,
      campaignId: onChain['a2']!.campaignId,
      campaign: {
        campaignType: 2,
        startTimestamp: onChain['a2']!.startTimestamp,
        duration: onChain['a2']!.duration,
        campaignData: encodeClammCampaignData({
          pool: poolB.pool,
          weightFees: 2000,
          weightToken0: 4000,
          weightToken1: 4000,
          isOutOfRangeIncentivized: false,
        }),
      },
    });
    for (const job of ['blocks', 'campaigns']) expect((await h.runJob(job)).status, job).to.equal('success');
    const body = await pools('/v4/clamm/pools/31337');
    expect(body[a]!.campaignIds).to.deep.equal([ids['a1']!]);
    // Pool B, hidden while its only campaign was private, now has a public one: listed with it alone.
    expect(body[b]!.campaignIds).to.deep.equal([ids['a2']!]);
    const own = await pools('/v4/clamm/pools/31337', { showPrivate: true }, as(creator));
    expect(own[b]!.campaignIds).to.deep.equal([ids['a2']!, ids['bPrivate']!].sort());
  });
});
