/**
 * Synthetic, repeatable data of the search benchmark (scripts/bench/search.ts): chains, campaign
 * types, tokens and skewed figures drawn from a seeded PRNG, turned into PostgreSQL rows and into
 * Elasticsearch documents with the real document builders (toOpportunityDocument, toCampaignDocument).
 */
import { actionOf, campaignTypeName } from '../../domain/campaignTypes.js';
import { toCampaignDocument, type CampaignDocument } from '../../domain/documents/campaignDocument.js';
import { toOpportunityDocument, type OpportunityDocument } from '../../domain/documents/opportunityDocument.js';
import { campaignDbId, opportunityDbId, tokenDbId } from '../../domain/ids.js';
import type { CampaignSource } from '../../domain/documents/sources.js';
import type { OpportunityCampaign, OpportunitySource } from '../../domain/documents/sources.js';
import type { ChainConfig } from '../../internal/config.js';
import { seededRandom } from '../../test/helpers/seededRandom.js';

/** Seeded (seededRandom): the same seed gives the same data set on every run. */
export function createRandom(seed: number) {
  const next = seededRandom(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  const hex = (chars: number) => {
    let s = '';
    while (s.length < chars)
      s += Math.floor(next() * 0x100000000)
        .toString(16)
        .padStart(8, '0');
    return s.slice(0, chars);
  };
  return { next, normal, hex, between: (lo: number, hi: number) => lo + (hi - lo) * next() };
}
export type Random = ReturnType<typeof createRandom>;

/** Weighted choice over a fixed table (cumulative weights, binary search). */
function weighted<T>(items: readonly (readonly [T, number])[]) {
  const total = items.reduce((s, [, w]) => s + w, 0);
  const cumulative = items.map((_, i) => items.slice(0, i + 1).reduce((s, [, x]) => s + x, 0) / total);
  return (r: Random): T => {
    const u = r.next();
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return items[lo]![0];
  };
}
const zipf = <T>(values: readonly T[], s = 1.1) => weighted(values.map((v, i) => [v, 1 / (i + 1) ** s] as const));

export const BENCH_CHAINS = [
  { id: 1, name: 'Ethereum', weight: 0.34 },
  { id: 42161, name: 'Arbitrum', weight: 0.2 },
  { id: 8453, name: 'Base', weight: 0.2 },
  { id: 10, name: 'Optimism', weight: 0.1 },
  { id: 137, name: 'Polygon', weight: 0.1 },
  { id: 56, name: 'BNB Chain', weight: 0.06 },
] as const;

/** The bench chains as API configuration (their RPC URLs and contracts are never called by the read API). */
export function benchChainConfigs(): ChainConfig[] {
  return BENCH_CHAINS.map((c) => ({
    id: c.id,
    name: c.name,
    icon: '',
    rpcUrl: 'http://127.0.0.1:1',
    distributionCreator: `0x${'1'.repeat(40)}`,
    distributor: `0x${'2'.repeat(40)}`,
    startBlock: 0,
    confirmations: 0,
    test: false,
    explorers: [],
    nativeToken: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    priceFeeds: {},
    tokens: [],
  }));
}
const pickChain = weighted(BENCH_CHAINS.map((c) => [c, c.weight] as const));
/** Campaign type ids (domain/campaignTypes.ts) by share of opportunities: token holding and pools dominate. */
const pickType = weighted([
  [1, 30],
  [2, 25],
  [13, 8],
  [7, 8],
  [12, 5],
  [5, 3],
  [11, 4],
  [10, 3],
  [15, 3],
  [21, 2],
  [4, 3],
  [20, 2],
  [19, 3],
  [0, 1],
] as const);
const SYMBOLS = [
  'WETH',
  'USDC',
  'USDT',
  'WBTC',
  'DAI',
  'stETH',
  'wstETH',
  'weETH',
  'ARB',
  'OP',
  'cbETH',
  'rETH',
  'GHO',
  'crvUSD',
  'FRAX',
  'LUSD',
  'sUSDe',
  'USDe',
  'ezETH',
  'rsETH',
  'PENDLE',
  'AAVE',
  'UNI',
  'LINK',
  'MKR',
  'COMP',
  'CRV',
  'LDO',
  'EURC',
  'POL',
  'BNB',
  'AERO',
  'MORPHO',
  'EIGEN',
  'ENA',
  'tBTC',
  'cbBTC',
  'FDUSD',
  'PYUSD',
  'Ëthena',
  'sDAI',
  'USDS',
  'SKY',
  'GMX',
  'RDNT',
  'VELO',
  'WELL',
  'ZRO',
  'STG',
  'BAL',
] as const;
const pickSymbol = zipf(SYMBOLS);
const REWARD_SYMBOLS = [
  'ARB',
  'OP',
  'USDC',
  'WETH',
  'MORPHO',
  'EIGEN',
  'AERO',
  'ENA',
  'PENDLE',
  'UNI',
  'AAVE',
  'LDO',
  'GHO',
  'CRV',
  'WELL',
  'ZRO',
  'VELO',
  'STG',
  'RDNT',
  'COMP',
  'BAL',
  'SKY',
  'GMX',
  'LINK',
  'POL',
] as const;
/** Reward tokens per chain: mostly tokens, a few point tokens, one pre-TGE and one test token. */
export type RewardToken = {
  id: string;
  chainId: number;
  address: string;
  symbol: string;
  type: 'TOKEN' | 'PRETGE' | 'POINT';
  isTest: boolean;
};
export function rewardTokensOf(chainId: number): RewardToken[] {
  const address = (i: number) => `0x${chainId.toString(16).padStart(8, '0')}${i.toString(16).padStart(32, 'a')}`;
  return [
    ...REWARD_SYMBOLS.map((symbol, i) => ({
      id: tokenDbId(chainId, address(i)),
      chainId,
      address: address(i),
      symbol,
      type: 'TOKEN' as const,
      isTest: false,
    })),
    {
      id: tokenDbId(chainId, address(100)),
      chainId,
      address: address(100),
      symbol: 'PTS',
      type: 'POINT',
      isTest: false,
    },
    {
      id: tokenDbId(chainId, address(101)),
      chainId,
      address: address(101),
      symbol: 'XP',
      type: 'POINT',
      isTest: false,
    },
    {
      id: tokenDbId(chainId, address(102)),
      chainId,
      address: address(102),
      symbol: 'preAIR',
      type: 'PRETGE',
      isTest: false,
    },
    {
      id: tokenDbId(chainId, address(103)),
      chainId,
      address: address(103),
      symbol: 'TEST',
      type: 'TOKEN',
      isTest: true,
    },
  ];
}
/** Zipf over the 25 tokens (~93%), then points (~5%), pre-TGE (~1.5%), test (~0.5%). */
const pickReward = weighted([
  ...REWARD_SYMBOLS.map((_, i) => [i, 0.93 / (i + 1) ** 1.1 / 3.57] as const),
  [25, 0.03],
  [26, 0.02],
  [27, 0.015],
  [28, 0.005],
] as const);
const REWARDS = new Map(BENCH_CHAINS.map((c) => [c.id as number, rewardTokensOf(c.id)]));
const CREATORS = Array.from({ length: 2000 }, (_, i) => `0x${(i * 7919 + 1).toString(16).padStart(40, 'c')}`);
const pickCreator = zipf(CREATORS, 1.2);

const DAY = 86_400;
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/**
 * Campaign count of each opportunity: one, plus a multinomial share of the rest with lognormal
 * weights (σ 1.7), capped at 800: most opportunities have 1–3 campaigns, a few hundreds.
 */
export function campaignCounts(r: Random, opportunities: number, campaigns: number): Uint32Array {
  const counts = new Uint32Array(opportunities).fill(1);
  const extra = Math.max(0, campaigns - opportunities);
  const weights = Float64Array.from({ length: opportunities }, () => Math.exp(1.7 * r.normal()));
  const total = weights.reduce((s, w) => s + w, 0);
  let assigned = 0;
  for (let i = 0; i < opportunities; i++) {
    const n = Math.min(799, Math.floor((weights[i]! / total) * extra));
    counts[i]! += n;
    assigned += n;
  }
  for (let left = extra - assigned; left > 0; ) {
    const i = Math.floor(r.next() * opportunities);
    if (counts[i]! < 800) (counts[i]! += 1), left--;
  }
  return counts;
}

export type GeneratedBatch = {
  opportunities: { id: string; chainId: number; type: string; identifier: string; action: string; createdAt: Date }[];
  metrics: { opportunityId: string; tvl: number; apr: number; dailyRewards: number; maxDailyRewards: number | null }[];
  targets: { id: string; chainId: number; address: string; name: string; symbol: string }[];
  campaigns: {
    id: string;
    chainId: number;
    campaignId: string;
    creator: string;
    rewardToken: string;
    amount: string;
    campaignType: number;
    start: number;
    end: number;
    data: `0x${string}`;
    createdAt: Date;
    mainParameter: string;
    opportunityId: string;
    params: Record<string, unknown>;
    k: number;
  }[];
  opportunityDocs: OpportunityDocument[];
  campaignDocs: CampaignDocument[];
};

/** One campaign window around `now`: dormant opportunities only had past ones; active ones run now, with history; upcoming ones start soon. */
function windowOf(r: Random, mode: 'dormant' | 'active' | 'upcoming', last: boolean, now: number): [number, number] {
  const duration = Math.round(DAY * clamp(Math.exp(2.5 + 0.8 * r.normal()), 1, 180));
  if (mode === 'upcoming' && last) {
    const start = now + Math.round(r.between(3600, 30 * DAY));
    return [start, start + duration];
  }
  if (mode === 'active' && (last || r.next() < 0.4))
    return [now - Math.round(r.between(0, Math.min(duration, 60 * DAY))), now + Math.round(r.between(3600, 60 * DAY))];
  const end = now - Math.round(r.between(3600, 365 * DAY));
  return [end - duration, end];
}

/**
 * Pure (given the PRNG state): rows and documents of opportunities [from, to), campaign ids
 * numbered from `firstCampaign`. Metrics: TVL lognormal ($1k–$1B), daily rewards lognormal and
 * correlated with TVL (zero unless a campaign runs), APR = daily × 365 / TVL (heavy-tailed).
 */
export function generateBatch(
  r: Random,
  counts: Uint32Array,
  from: number,
  to: number,
  firstCampaign: number,
  now: number,
): GeneratedBatch {
  const out: GeneratedBatch = {
    opportunities: [],
    metrics: [],
    targets: [],
    campaigns: [],
    opportunityDocs: [],
    campaignDocs: [],
  };
  const chainNames = new Map<number, string>(BENCH_CHAINS.map((c) => [c.id, c.name]));
  let k = firstCampaign;
  for (let i = from; i < to; i++) {
    const chain = pickChain(r);
    const campaignType = pickType(r);
    const type = campaignTypeName(campaignType);
    const action = actionOf(type);
    const identifier = `0x${r.hex(40)}`;
    const id = opportunityDbId(chain.id, type, identifier);
    const symbol = action === 'POOL' ? `${pickSymbol(r)}-${pickSymbol(r)}` : pickSymbol(r);
    const target = {
      id: tokenDbId(chain.id, identifier),
      chainId: chain.id,
      address: identifier,
      name: `${symbol} ${action === 'POOL' ? 'LP' : 'Token'}`,
      symbol,
    };
    const u = r.next();
    const mode = u < 0.5 ? 'dormant' : u < 0.92 ? 'active' : 'upcoming';
    const oppCampaigns: OpportunityCampaign[] = [];
    const n = counts[i]!;
    for (let j = 0; j < n; j++, k++) {
      const [start, end] = windowOf(r, mode, j === n - 1, now);
      const reward = REWARDS.get(chain.id)![pickReward(r)]!;
      const campaignId = `0x${k.toString(16).padStart(64, '0')}`;
      const c = {
        id: campaignDbId(chain.id, campaignId),
        chainId: chain.id,
        campaignId,
        creator: pickCreator(r),
        rewardToken: reward.address,
        amount: `${Math.floor(Math.exp(10 + 2 * r.normal()))}000000000000000000`,
        campaignType,
        start,
        end,
        data: `0x${k.toString(16).padStart(8, '0')}` as const,
        createdAt: new Date((start - Math.round(r.between(0, 7 * DAY))) * 1000),
        mainParameter: identifier,
        opportunityId: id,
        params: { targetToken: identifier, symbolTargetToken: symbol },
        k,
      };
      out.campaigns.push(c);
      oppCampaigns.push({
        id: c.id,
        campaign_id: campaignId,
        creator: c.creator,
        reward_token: reward.address,
        reward_symbol: reward.symbol,
        reward_type: reward.type,
        reward_is_test: reward.isTest,
        amount: c.amount,
        campaign_type: campaignType,
        start_timestamp: String(start),
        end_timestamp: String(end),
        params: {},
        created_at: c.createdAt,
      });
      out.campaignDocs.push(toCampaignDocument(campaignSourceOf(c, reward), chainNames, new Date(now * 1000)));
    }
    const live = oppCampaigns.some((c) => Number(c.start_timestamp) <= now && now < Number(c.end_timestamp));
    const tvl = 10 ** clamp(5.2 + 1.1 * r.normal(), 3, 9);
    const dailyRewards = live ? 10 ** clamp(-1.3 + 0.6 * Math.log10(tvl) + 0.7 * r.normal(), -1, 6) : 0;
    const metric = {
      opportunityId: id,
      tvl,
      apr: (dailyRewards * 365 * 100) / tvl,
      dailyRewards,
      maxDailyRewards: live && r.next() < 0.3 ? dailyRewards * r.between(1, 1.5) : null,
    };
    out.opportunities.push({ id, chainId: chain.id, type, identifier, action, createdAt: oppCampaigns[0]!.created_at });
    out.metrics.push(metric);
    out.targets.push(target);
    const source: OpportunitySource = {
      id,
      chain_id: chain.id,
      type,
      identifier,
      action,
      tags: [],
      program_slugs: [],
      campaigns: oppCampaigns,
      target: {
        id: target.id,
        name: target.name,
        address: identifier,
        symbol,
        decimals: 18,
        icon: '',
        verified: true,
        is_native: false,
        is_test: false,
        type: 'TOKEN',
        is_stablecoin: /USD|DAI|GHO|FRAX/.test(symbol) && action !== 'POOL',
        price: null,
        price_source: null,
        price_updated_at: null,
      },
      metrics: {
        tvl,
        apr: metric.apr,
        daily_rewards: dailyRewards,
        native_apr: 0,
        max_daily_rewards: metric.maxDailyRewards,
        records: {},
      },
    };
    out.opportunityDocs.push(toOpportunityDocument(source, chain.name, now)!);
  }
  return out;
}

function campaignSourceOf(c: GeneratedBatch['campaigns'][number], reward: RewardToken): CampaignSource {
  return {
    id: c.id,
    distribution_chain_id: c.chainId,
    compute_chain_id: c.chainId,
    campaign_id: c.campaignId,
    creator: c.creator,
    reward_token: c.rewardToken,
    amount: c.amount,
    campaign_type: c.campaignType,
    start_timestamp: String(c.start),
    end_timestamp: String(c.end),
    campaign_data: c.data,
    main_parameter: c.mainParameter,
    opportunity_id: c.opportunityId,
    params: c.params,
    has_overrides: false,
    is_private: false,
    parent_campaign_id: null,
    root_campaign_id: null,
    child_campaign_ids: [],
    created_at: c.createdAt,
    token_id: reward.id,
    token_name: reward.symbol,
    token_symbol: reward.symbol,
    token_decimals: 18,
    token_icon: '',
    token_verified: true,
    token_is_native: false,
    token_is_test: reward.isTest,
    token_type: reward.type,
    token_display_symbol: null,
    token_price: null,
    token_price_source: null,
    token_price_updated_at: null,
    metric_apr: null,
    metric_daily_rewards: null,
    metric_daily_amount: null,
    metric_computed_at: null,
    metric_campaign_status: null,
  };
}
