import { campaignTypeName } from '../campaignTypes.js';
import { tokenDbId } from '../ids.js';
import { protocolOf } from '../protocols.js';
import type { OpportunitySource } from './sources.js';
import { summarizeCampaigns, summaryStatus, type OpportunitySummarySource } from './campaignSummary.js';
import type { TokenRecord } from './records.js';

/**
 * Pure: text as the search fields index it and queries search it: accents removed (NFKD, combining
 * marks dropped) and lower-cased. The Elasticsearch build has no asciifolding filter, so folding
 * happens here, at index time and on the query string alike.
 */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

const VERBS: Record<string, string> = {
  HOLD: 'Hold',
  POOL: 'Provide liquidity to',
  LEND: 'Supply',
  BORROW: 'Borrow',
  STAKE: 'Stake',
  DROP: 'Claim',
  LONG: 'Go long on',
  SHORT: 'Go short on',
  SWAP: 'Swap',
};

/** Pure: a readable opportunity name, e.g. "Hold stTST" or "Provide liquidity to TLP". */
export function opportunityName(src: Pick<OpportunitySource, 'action' | 'type' | 'identifier' | 'target'>): string {
  const subject = src.target?.symbol || `${src.identifier.slice(0, 6)}…${src.identifier.slice(-4)}`;
  const verb = VERBS[src.action];
  return verb ? `${verb} ${subject}` : `${src.type} ${subject}`;
}

/**
 * Pure: the stored tvlRecord with its `status` (TvlStatus, #42): opportunity_metrics.tvl_status, else
 * the record's own, else `ok` for a number and `read-failed` for null; `not-computed` before the first
 * metrics run (no metrics row).
 */
function tvlRecordOf(m: OpportunitySource['metrics'], timestamp: string): Record<string, unknown> {
  const stored = m?.records['tvlRecord'] as Record<string, unknown> | undefined;
  const status = m?.tvl_status ?? stored?.['status'] ?? (!m ? 'not-computed' : m.tvl === null ? 'read-failed' : 'ok');
  return stored ? { ...stored, status } : { total: 0, status, timestamp, breakdowns: [] };
}

/**
 * Pure: the denormalized opportunity document of a source holding its campaigns as a list (fixtures,
 * benchmarks): `opportunityDocumentOf` over their summary at `now`.
 * @returns null when the opportunity has no campaign left (its document is deleted).
 */
export function toOpportunityDocument(src: OpportunitySource, chainName: string, now: number) {
  const { campaigns, ...rest } = src;
  return opportunityDocumentOf({ ...rest, summary: summarizeCampaigns(campaigns, now) }, chainName, now);
}

/**
 * Pure: the denormalized opportunity document (public Opportunity record plus search-only fields)
 * from its PostgreSQL sources, its public campaigns summarized at `now`. `status` and `liveCampaigns`
 * are as of `now`; readers recompute the status from `campaignWindows` (merged intervals) and keep
 * `liveCampaigns` only while LIVE (the metrics job re-projects when the count changes). Figures the
 * metrics job computes start at zero. The size of the document does not grow with the number of
 * campaigns but for its sets (creators, types, reward tokens) and separate windows.
 * @returns null when the opportunity has no campaign left (its document is deleted).
 */
export function opportunityDocumentOf(src: OpportunitySummarySource, chainName: string, now: number) {
  const summary = src.summary;
  if (!summary?.count) return null;
  const { status, liveCampaigns } = summaryStatus(summary);
  const tokens: TokenRecord[] = src.target
    ? [
        {
          id: src.target.id ?? tokenDbId(src.chain_id, src.target.address),
          name: src.target.name,
          chainId: src.chain_id,
          address: src.target.address,
          decimals: src.target.decimals,
          symbol: src.target.symbol,
          icon: src.target.icon,
          verified: src.target.verified,
          isNative: src.target.is_native,
          isTest: src.target.is_test,
          type: src.target.type,
          price: src.target.price ?? null,
          updatedAt: src.target.price_updated_at
            ? Math.floor(new Date(src.target.price_updated_at).getTime() / 1000)
            : null,
          priceSource: src.target.price_source ?? null,
        },
      ]
    : [];
  const name = opportunityName(src);
  const timestamp = String(now);
  const m = src.metrics;
  const protocol = protocolOf(src.type);
  return {
    id: src.id,
    chainId: src.chain_id,
    type: src.type,
    identifier: src.identifier,
    name,
    description: `Earn rewards on ${chainName}: ${name.charAt(0).toLowerCase()}${name.slice(1)}.`,
    howToSteps: [] as string[],
    status,
    action: src.action,
    tags: src.tags ?? ([] as string[]),
    mainProtocol: protocol?.id ?? '',
    depositUrl: summary.depositUrl,
    depositUrls: [] as unknown[],
    explorerAddress: /^0x[0-9a-f]{40}$/.test(src.identifier) ? src.identifier : '',
    hidden: false,
    // Null when unknown (tvlRecord.status says why, #42): not indexed, so no TVL/APR filter, bin, sum,
    // min or max counts it, and a sort on it puts it last. The Opportunity record serves 0 (serialize.ts).
    tvl: m ? m.tvl : null,
    apr: m ? m.apr : null,
    dailyRewards: m?.daily_rewards ?? 0,
    nativeApr: m?.native_apr ?? 0,
    totalApr: m && m.apr !== null ? m.apr + m.native_apr : null,
    maxDailyRewards: m?.max_daily_rewards ?? null,
    // apr and dailyRewards stay numbers; these reward tokens are left out of them for want of a price.
    unpricedRewardTokens: m?.unpriced_reward_tokens ?? ([] as string[]),
    maxApr: null,
    liveCampaigns,
    lastCampaignCreatedAt: summary.lastCreatedAt,
    liveCampaignsForCreator: 0,
    soonCampaignsForCreator: 0,
    pastCampaignsForCreator: 0,
    earliestCampaignStart: summary.earliestStart,
    latestCampaignStart: summary.latestStart,
    earliestCampaignEnd: summary.earliestEnd,
    latestCampaignEnd: summary.latestEnd,
    distributionType: 'DUTCH_AUCTION',
    tokens,
    activePrograms: [] as unknown[],
    protocol: protocol
      ? // Protocol-wide figures (dailyRewards, numberOfLiveCampaigns) are aggregated at read time.
        {
          ...protocol,
          opportunityLiveTags: [] as string[],
          banner: null,
          opportunityBannerLight: null,
          opportunityBannerDark: null,
          trustData: null,
        }
      : null,
    aprRecord: (m?.records['aprRecord'] as Record<string, unknown> | undefined) ?? {
      cumulated: 0,
      timestamp,
      breakdowns: [] as unknown[],
    },
    // Absent in documents of metrics stored before it (no key at all): the API derives one (serialize.ts).
    ...(m?.records['nativeAprRecord']
      ? { nativeAprRecord: m.records['nativeAprRecord'] as Record<string, unknown> }
      : {}),
    tvlRecord: tvlRecordOf(m, timestamp),
    rewardsRecord: (m?.records['rewardsRecord'] as Record<string, unknown> | undefined) ?? {
      total: 0,
      timestamp,
      breakdowns: [] as unknown[],
    },
    stablecoin: src.target?.is_stablecoin ?? false,
    campaignWindows: summary.windows,
    campaignTypes: summary.campaignTypes,
    creatorAddresses: summary.creators,
    rewardTokenSymbols: summary.rewardSymbols,
    rewardTokenTypes: summary.rewardTypes,
    programSlugs: src.program_slugs ?? ([] as string[]),
    creatorSlugs: summary.creatorIds,
    chainName,
    // Search-only: true when every reward token is a test token / a point token (`test`, `point` filters).
    allRewardsTest: summary.allRewardsTest,
    allRewardsPoint: summary.allRewardsPoint,
    // excludeSubCampaigns keeps opportunities with at least one campaign that is not a sub-campaign.
    hasRootCampaign: summary.hasRootCampaign,
    searchName: foldText(name),
    // What the opportunity is (name, protocol, type, identifier, target token, chain), not what it pays:
    // reward tokens are searched with `rewardTokenSymbol` (issue 31: `search=USDC` matched every opportunity paying USDC).
    searchText: foldText(
      [
        name,
        protocol?.name ?? '',
        src.type,
        campaignTypeName(summary.firstCampaignType),
        src.identifier,
        src.target?.symbol ?? '',
        src.target?.name ?? '',
        chainName,
      ].join(' '),
    ),
    indexedAt: new Date(now * 1000).toISOString(),
  };
}

export type OpportunityDocument = NonNullable<ReturnType<typeof opportunityDocumentOf>>;
