import type { StoredPrice } from '../../domain/prices.js';
import type { CampaignStatusRecord } from '../../domain/campaignStatus.js';
import type { TvlStatus } from '../../domain/tvlStatus.js';
import type { OpportunityUnderlying } from '../../domain/opportunityUnderlying.js';
import { NO_NATIVE_APR, nativeAprRecordOf, type NativeAprReading } from './nativeApr.js';

export { TVL_STATUSES, type TvlStatus } from '../../domain/tvlStatus.js';

const DAY = 86_400;

export type CampaignPhase = 'LIVE' | 'PAST' | 'SOON';

/** Pure: SOON before the start, LIVE from start (inclusive) to end (exclusive), PAST after. */
export function campaignPhase(start: number, end: number, now: number): CampaignPhase {
  return now < start ? 'SOON' : now < end ? 'LIVE' : 'PAST';
}

export type CampaignMetricsInput = {
  id: string;
  campaignId: string;
  opportunityId: string;
  rewardTokenId: string;
  rewardDecimals: number;
  /** Net amount in token base units (decimal string). */
  amount: string;
  start: number;
  end: number;
  rewardPrice: StoredPrice | undefined;
};

export type CampaignMetrics = {
  id: string;
  rewardTokenId: string;
  phase: CampaignPhase;
  /** USD per day at the reward token's price; null without a fresh price. */
  dailyRewardsUsd: number | null;
  /** Reward token base units per day (decimal string, rounded down). */
  dailyAmount: string;
  apr: number | null;
  tvlUsd: number | null;
  campaignStatus: CampaignStatusRecord;
  inputs: {
    amount: string;
    decimals: number;
    durationSeconds: number;
    price: number | null;
    priceSource: string | null;
    priceUpdatedAt: number | null;
    priceStale: boolean;
    tvlUsd: number | null;
  };
};

/** Pure: token base units → whole tokens as a float (for USD figures only; amounts stay exact elsewhere). */
export function toUnits(amount: string | bigint, decimals: number): number {
  const value = BigInt(amount);
  const scale = 10n ** BigInt(decimals);
  return Number(value / scale) + Number(value % scale) / Number(scale);
}

/**
 * Pure: a campaign's figures at `now`. A campaign distributes only inside [start, end): there,
 * dailyRewards = net amount / duration in days × reward price and APR = dailyRewards × 365 / TVL × 100
 * (TVL of its opportunity); before its start and from its end both are 0 (and the daily amount "0"),
 * whatever the price. A missing or stale price gives null USD figures inside the window and a SKIPPED
 * computation status naming why, never a guessed value.
 */
export function computeCampaignMetrics(
  c: CampaignMetricsInput,
  tvlUsd: number | null,
  now: number,
  runStarted: number,
): CampaignMetrics {
  const duration = Math.max(1, c.end - c.start);
  const phase = campaignPhase(c.start, c.end, now);
  const distributing = phase === 'LIVE';
  const dailyAmount = distributing ? (BigInt(c.amount) * BigInt(DAY)) / BigInt(duration) : 0n;
  const price = c.rewardPrice && !c.rewardPrice.stale ? c.rewardPrice.price : null;
  const dailyRewardsUsd = !distributing
    ? 0
    : price === null
      ? null
      : toUnits(c.amount, c.rewardDecimals) * (DAY / duration) * price;
  const apr = !distributing ? 0 : dailyRewardsUsd !== null && tvlUsd ? (dailyRewardsUsd * 365 * 100) / tvlUsd : null;
  const computedUntil = phase === 'SOON' ? c.start : Math.min(now, c.end);
  const error =
    price !== null ? undefined : c.rewardPrice ? 'reward token price is stale' : 'no price for the reward token';
  const status: CampaignStatusRecord['status'] = phase === 'SOON' ? 'SKIPPED' : error ? 'SKIPPED' : 'SUCCESS';
  return {
    id: c.id,
    rewardTokenId: c.rewardTokenId,
    phase,
    dailyRewardsUsd,
    dailyAmount: dailyAmount.toString(),
    apr,
    tvlUsd,
    campaignStatus: {
      campaignId: c.campaignId,
      computedUntil,
      processingStarted: runStarted,
      status,
      preComputeProcessingStarted: runStarted,
      preComputeStatus: status,
      delay: phase === 'LIVE' ? Math.max(0, now - computedUntil) : 0,
      ...(phase === 'SOON' ? { error: 'campaign has not started' } : error ? { error } : {}),
    },
    inputs: {
      amount: c.amount,
      decimals: c.rewardDecimals,
      durationSeconds: duration,
      price: c.rewardPrice?.price ?? null,
      priceSource: c.rewardPrice?.priceSource ?? null,
      priceUpdatedAt: c.rewardPrice?.updatedAt ?? null,
      priceStale: c.rewardPrice?.stale ?? false,
      tvlUsd,
    },
  };
}

/** How an opportunity's TVL was read (docs/api-behaviour.md#tvl-per-protocol). */
export type TvlMethod =
  | 'ERC20_TOTAL_SUPPLY'
  | 'ERC4626_TOTAL_ASSETS'
  | 'UNISWAP_V3_POOL'
  | 'MORPHO_BLUE_SUPPLY'
  | 'AAVE_V3_ATOKEN'
  | 'UNISWAP_V4_POOL'
  | 'NONE';

/** Why a reading has method NONE (absent: read-failed). */
export type TvlNoneReason = 'unsupported-target' | 'read-failed';

/** One token of a TVL reading: an on-chain amount in base units and its price (added by the caller). */
export type TvlTokenAmount = {
  tokenId: string;
  tokenAddress: string;
  amount: string;
  decimals: number;
  price: StoredPrice | undefined;
};

/**
 * The on-chain TVL inputs of an opportunity: one token for an ERC20 or vault (or a Morpho market's
 * loan token), one per pool token for a Uniswap V3 or V4 pool; none for NONE.
 */
/**
 * `reason`: why a NONE reading has no TVL (absent: read-failed); `detail`: the reader's own words, when it
 * says more (a bound passed, a log search refused), kept with the stored inputs.
 */
export type TvlReading = { method: TvlMethod; tokens: TvlTokenAmount[]; reason?: TvlNoneReason; detail?: string };

/**
 * A reading as fetched, before prices are added. `underlying`: what a pool or market stands on, set by
 * its reader once it identified the pool's or market's tokens (even when the amounts then failed).
 */
export type UnpricedTvlReading = {
  method: TvlMethod;
  tokens: Omit<TvlTokenAmount, 'price'>[];
  reason?: TvlNoneReason;
  detail?: string;
  underlying?: OpportunityUnderlying;
};

export const NO_TVL_READING: TvlReading = { method: 'NONE', tokens: [] };

const priced = (t: TvlTokenAmount): t is TvlTokenAmount & { price: StoredPrice } => !!t.price && !t.price.stale;

/** Pure: USD value of each token of a reading; null for a token without a fresh price. */
export function tvlTokenValues(reading: TvlReading): (number | null)[] {
  return reading.tokens.map((t) => (priced(t) ? toUnits(t.amount, t.decimals) * t.price.price : null));
}

/**
 * Pure: TVL in USD, the sum over the reading's tokens of amount × fresh price; null when there is no
 * reading or any of its tokens lacks a fresh price (a pool half priced is unknown, never the half).
 */
export function tvlUsdOf(reading: TvlReading): number | null {
  if (reading.method === 'NONE' || !reading.tokens.length) return null;
  const values = tvlTokenValues(reading);
  return values.some((v) => v === null) ? null : values.reduce((sum: number, v) => sum + v!, 0);
}

/** Pure: why the reading's TVL is known (`ok`) or not (the other TvlStatus values but `not-computed`). */
export function tvlStatusOf(reading: TvlReading): TvlStatus {
  if (reading.method === 'NONE' || !reading.tokens.length) return reading.reason ?? 'read-failed';
  return tvlUsdOf(reading) === null ? 'unpriced' : 'ok';
}

/** Pure: ids (sorted, as `rewardToken.id`) of the reading's tokens without a fresh price. */
export function unpricedTvlTokens(reading: TvlReading): string[] {
  return [...new Set(reading.tokens.filter((t) => !priced(t)).map((t) => t.tokenId))].sort();
}

export type OpportunityMetrics = ReturnType<typeof computeOpportunityMetrics>;

/**
 * Pure: an opportunity's figures from its campaigns' metrics at the same instant (one computation)
 * and its TVL reading: dailyRewards and APR are the sums of its campaigns' dailyRewards and APR (a
 * campaign outside its window contributes 0; an unknown figure counts 0). A TVL that cannot be known
 * (tvlStatus other than `ok`) is null, never 0, and so is the APR that divides by it (#42); the
 * records keep `total`/`cumulated` numbers (the contract types them so) at 0 with `tvlRecord.status`
 * saying why. Plus the aprRecord,
 * tvlRecord and rewardsRecord breakdowns of the Opportunity record (OPPORTUNITY_RECORD_SCHEMA, domain), over the LIVE
 * campaigns; `unpricedRewardTokens`: the reward tokens (ids, sorted) of campaigns whose daily rewards
 * are unknown for want of a fresh price, which those sums leave out. `started`: some campaign
 * had started by `now` (history records exist only from then). `nativeApr`: the protocol's own yield
 * (`native`, nativeApr.ts), 0 when unknown with `nativeAprRecord.status` saying why.
 */
export function computeOpportunityMetrics(
  opportunityId: string,
  campaigns: (CampaignMetrics & { campaignId: string; token: Record<string, unknown>; amount: string })[],
  reading: TvlReading,
  now: number,
  native: NativeAprReading = NO_NATIVE_APR,
) {
  const tvl = tvlUsdOf(reading);
  const tvlStatus = tvlStatusOf(reading);
  const tokenValues = tvlTokenValues(reading);
  const unpricedTokens = unpricedTvlTokens(reading);
  const live = campaigns.filter((c) => c.phase === 'LIVE');
  const dailyRewards = campaigns.reduce((sum, c) => sum + (c.dailyRewardsUsd ?? 0), 0);
  // A known TVL of 0 has no APR to speak of (0, as before); an unknown TVL, an unknown APR.
  const apr = tvl === null ? null : tvl ? campaigns.reduce((sum, c) => sum + (c.apr ?? 0), 0) : 0;
  const timestamp = String(now);
  const { nativeApr, record: nativeAprRecord } = nativeAprRecordOf(native, timestamp);
  return {
    opportunityId,
    tvl,
    tvlStatus,
    apr,
    dailyRewards,
    nativeApr,
    maxDailyRewards: live.length ? Math.max(...live.map((c) => c.dailyRewardsUsd ?? 0)) : null,
    liveCampaigns: live.length,
    unpricedRewardTokens: [
      ...new Set(campaigns.filter((c) => c.dailyRewardsUsd === null).map((c) => c.rewardTokenId)),
    ].sort(),
    started: campaigns.some((c) => c.phase !== 'SOON'),
    records: {
      aprRecord: {
        cumulated: apr ?? 0,
        timestamp,
        breakdowns: live.map((c) => ({
          identifier: c.campaignId,
          type: 'CAMPAIGN',
          value: c.apr ?? 0,
          timestamp,
          distributionType: 'DUTCH_AUCTION',
        })),
      },
      nativeAprRecord,
      tvlRecord: {
        total: tvl ?? 0,
        status: tvlStatus,
        timestamp,
        // One TOKEN entry per token of the reading (both tokens of a pool), only when the total is known.
        breakdowns:
          tvl === null
            ? []
            : reading.tokens.map((t, i) => ({ identifier: t.tokenAddress, type: 'TOKEN', value: tokenValues[i]! })),
        ...(unpricedTokens.length ? { unpricedTokens } : {}),
      },
      rewardsRecord: {
        total: dailyRewards,
        timestamp,
        breakdowns: live.map((c) => ({
          campaignId: c.id,
          value: c.dailyRewardsUsd ?? 0,
          maxValue: c.dailyRewardsUsd ?? 0,
          timestamp,
          token: c.token,
          amount: c.dailyAmount,
          distributionType: 'DUTCH_AUCTION',
          onChainCampaignId: c.campaignId,
        })),
      },
    },
    inputs: {
      tvl: {
        method: reading.method,
        ...(reading.reason ? { reason: reading.reason } : {}),
        ...(reading.detail ? { detail: reading.detail } : {}),
        tokens: reading.tokens.map((t) => ({
          tokenAddress: t.tokenAddress,
          amount: t.amount,
          decimals: t.decimals,
          price: t.price ?? null,
        })),
      },
      nativeApr: native,
      liveCampaigns: live.map((c) => c.id),
    },
  };
}
