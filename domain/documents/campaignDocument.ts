import { campaignTypeName } from '../campaignTypes.js';
import { opportunityDbId, tokenDbId } from '../ids.js';
import { protocolOf } from '../protocols.js';
import type { CampaignSource } from './sources.js';
import { campaignEncodingHash, toConfiguration } from '../campaignData/toConfiguration.js';
import type { CampaignRecord, TokenRecord } from './records.js';

/**
 * Pure: lower-cases and strips diacritics (é → e), so free text matches case- and accent-insensitively
 * without the analysis-common plugin. The API folds search queries with the same function.
 */
export function foldSearchText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/** Distribution-type filter values (FIX_REWARD, MAX_REWARD, DUTCH_AUCTION, TOTAL_APR; docs/api-behaviour.md#enumerations). */
export type DistributionFamily = 'FIX_REWARD' | 'MAX_REWARD' | 'DUTCH_AUCTION' | 'TOTAL_APR';

/**
 * Pure: the filter family of a response distribution type: FIX_REWARD_* and MAX_REWARD_* by prefix,
 * DUTCH_AUCTION itself, and every APR-targeting type (AAVE_NET_APR, ERC4626_*, NET_APR, …) TOTAL_APR.
 */
export function distributionFamilyOf(distributionType: string): DistributionFamily {
  if (distributionType.startsWith('FIX_REWARD')) return 'FIX_REWARD';
  if (distributionType.startsWith('MAX_REWARD')) return 'MAX_REWARD';
  if (distributionType === 'DUTCH_AUCTION') return 'DUTCH_AUCTION';
  return 'TOTAL_APR';
}

/**
 * Elasticsearch campaign document: the public Campaign record (CampaignRecord) as stored, its Unix start
 * and end as numbers (range queries and sorts) and without its chains (the current Chain records are
 * joined when served, api/reads/campaigns/serialize.ts), plus the search-only fields.
 */
export type CampaignDocument = Omit<
  CampaignRecord,
  'startTimestamp' | 'endTimestamp' | 'chain' | 'distributionChain'
> & {
  startTimestamp: number;
  endTimestamp: number;
  /** Search-only: the campaign type id (campaignTypes filter). */
  campaignType: number;
  /** Search-only: what the campaign targets (its opportunity's identifier). */
  mainParameter: string;
  /** Search-only: its opportunity's protocol (mainProtocolId filter), null when none. */
  mainProtocolId: string | null;
  /** Search-only: the family of its distribution type (distributionTypes filter). */
  distributionFamily: DistributionFamily;
  /** Search-only: the folded free text `search` matches (foldSearchText). */
  searchText: string;
  /** Search-only: when it was projected (ISO 8601). */
  indexedAt: string;
};

/**
 * Pure: builds the denormalized campaign document from its PostgreSQL sources. Figures that later
 * jobs compute (apr, dailyRewards, status of computation) start at their neutral values.
 * @param chainNames chain id → name, for the free-text field.
 */
export function toCampaignDocument(
  src: CampaignSource,
  chainNames: ReadonlyMap<number, string>,
  indexedAt: Date,
): CampaignDocument {
  const type = campaignTypeName(src.campaign_type);
  // Rows written before decoding existed lack these; derive them the same way the indexer does.
  const derived =
    src.main_parameter && src.opportunity_id
      ? null
      : toConfiguration({
          distributionChainId: src.distribution_chain_id,
          campaignId: src.campaign_id,
          campaignType: src.campaign_type,
          startTimestamp: Number(src.start_timestamp),
          duration: Number(src.end_timestamp) - Number(src.start_timestamp),
          campaignData: src.campaign_data,
        });
  const mainParameter = src.main_parameter ?? derived!.mainParameter;
  const opportunityId = src.opportunity_id ?? opportunityDbId(src.compute_chain_id, type, mainParameter);
  const params = derived?.params ?? src.params;
  const distributionType = 'DUTCH_AUCTION';
  const rewardToken: TokenRecord = {
    id: src.token_id ?? tokenDbId(src.distribution_chain_id, src.reward_token),
    name: src.token_name,
    chainId: src.distribution_chain_id,
    address: src.reward_token,
    decimals: src.token_decimals ?? 18,
    symbol: src.token_symbol ?? '',
    icon: src.token_icon ?? '',
    verified: src.token_verified ?? false,
    isNative: src.token_is_native ?? false,
    isTest: src.token_is_test ?? false,
    type: src.token_type ?? 'TOKEN',
    price: src.token_price ?? null,
    updatedAt: src.token_price_updated_at ? Math.floor(src.token_price_updated_at.getTime() / 1000) : null,
    priceSource: src.token_price_source ?? null,
    ...(src.token_display_symbol ? { displaySymbol: src.token_display_symbol } : {}),
  };
  return {
    id: src.id,
    computeChainId: src.compute_chain_id,
    distributionChainId: src.distribution_chain_id,
    campaignId: src.campaign_id,
    type,
    campaignType: src.campaign_type,
    subType: null,
    amount: src.amount,
    startTimestamp: Number(src.start_timestamp),
    endTimestamp: Number(src.end_timestamp),
    creatorAddress: src.creator,
    apr: src.metric_apr ?? 0,
    dailyRewards: src.metric_daily_rewards ?? 0,
    // Computed, and no USD figure: the metrics job had no fresh price of the reward token (LIVE only).
    unpricedRewardTokens:
      src.metric_computed_at && src.metric_daily_rewards === null ? [rewardToken.id] : ([] as string[]),
    creator: { address: src.creator, tags: src.creator_tags ?? ([] as string[]), creatorId: src.creator_id ?? null },
    params: { ...params, campaignData: src.campaign_data },
    description: '',
    rewardTokenId: rewardToken.id,
    rewardToken,
    opportunityId,
    mainParameter,
    // The opportunity's protocol when the back office set one (PATCH /v4/opportunities/{id}), as its document says.
    mainProtocolId: src.opportunity_main_protocol_id ?? protocolOf(type)?.id ?? null,
    distributionType,
    distributionFamily: distributionFamilyOf(distributionType),
    // Until the metrics job has computed the campaign, its computation is reported as pending.
    campaignStatus: src.metric_campaign_status ?? {
      campaignId: src.campaign_id,
      computedUntil: 0,
      processingStarted: 0,
      status: 'PROCESSING',
      preComputeProcessingStarted: 0,
      preComputeStatus: 'PROCESSING',
    },
    createdAt: src.created_at.toISOString(),
    rootCampaignId: src.root_campaign_id ?? null,
    parentCampaignId: src.parent_campaign_id ?? null,
    childCampaignIds: src.child_campaign_ids ?? ([] as string[]),
    dailyRewardsBreakdown:
      src.metric_daily_amount === null || src.metric_daily_amount === undefined
        ? []
        : [
            {
              campaignId: src.id,
              value: src.metric_daily_rewards ?? 0,
              maxValue: src.metric_daily_rewards ?? 0,
              timestamp: String(Math.floor((src.metric_computed_at ?? indexedAt).getTime() / 1000)),
              token: rewardToken,
              amount: src.metric_daily_amount,
              distributionType: 'DUTCH_AUCTION',
              onChainCampaignId: src.campaign_id,
            },
          ],
    pauseCompute: null,
    pausePrecompute: null,
    hasOverrides: src.has_overrides ?? false,
    isPrivate: src.is_private ?? false,
    hidden: false,
    hideLeaderboard: false,
    campaignEncodingHash: campaignEncodingHash(src.campaign_data),
    searchText: foldSearchText(
      [
        type,
        rewardToken.symbol,
        rewardToken.name ?? '',
        src.campaign_id,
        src.creator,
        mainParameter,
        chainNames.get(src.compute_chain_id) ?? '',
      ].join(' '),
    ),
    indexedAt: indexedAt.toISOString(),
  };
}
