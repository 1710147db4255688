import { campaignTypeName } from '../campaignTypes.js';
import { tokenDbId } from '../ids.js';
import { protocolOf } from '../protocols.js';
import type { OpportunitySource } from './sources.js';
import type { TokenRecord } from './records.js';

export type CampaignWindow = { start: number; end: number };
export type OpportunityStatus = 'NONE' | 'PAST' | 'LIVE' | 'SOON';

/**
 * Pure: the union of campaign windows as disjoint, sorted intervals. Status filters only need the
 * union, and it keeps documents small (nested documents are capped per document) however many
 * campaigns an opportunity has.
 */
export function mergeWindows(windows: CampaignWindow[]): CampaignWindow[] {
  const sorted = [...windows].sort((a, b) => a.start - b.start);
  const merged: CampaignWindow[] = [];
  for (const w of sorted) {
    const last = merged[merged.length - 1];
    if (last && w.start <= last.end) last.end = Math.max(last.end, w.end);
    else merged.push({ ...w });
  }
  return merged;
}

/** Pure: LIVE when a campaign runs at `now`, else SOON when one starts later, else PAST; NONE without campaigns. */
export function opportunityStatus(
  windows: CampaignWindow[],
  now: number,
): { status: OpportunityStatus; liveCampaigns: number } {
  const live = windows.filter((w) => w.start <= now && now < w.end).length;
  if (live) return { status: 'LIVE', liveCampaigns: live };
  if (windows.some((w) => w.start > now)) return { status: 'SOON', liveCampaigns: 0 };
  return { status: windows.length ? 'PAST' : 'NONE', liveCampaigns: 0 };
}

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
 * Pure: the denormalized opportunity document (public Opportunity record plus search-only fields)
 * from its PostgreSQL sources. `status` and `liveCampaigns` are as of `now`; readers recompute the
 * status from `campaignWindows` (merged intervals) and keep `liveCampaigns` only while LIVE (the
 * metrics job re-projects when the count changes). Figures the metrics job computes start at zero.
 * @returns null when the opportunity has no campaign left (its document is deleted).
 */
export function toOpportunityDocument(src: OpportunitySource, chainName: string, now: number) {
  if (!src.campaigns.length) return null;
  const windows = src.campaigns.map((c) => ({ start: Number(c.start_timestamp), end: Number(c.end_timestamp) }));
  const { status, liveCampaigns } = opportunityStatus(windows, now);
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
  const depositUrl =
    src.campaigns.map((c) => c.params['url']).find((u): u is string => typeof u === 'string' && u.length > 0) ?? '';
  const starts = windows.map((w) => w.start);
  const ends = windows.map((w) => w.end);
  const timestamp = String(now);
  const m = src.metrics;
  const protocol = protocolOf(src.type);
  const rewardSymbols = [...new Set(src.campaigns.map((c) => c.reward_symbol).filter((s): s is string => !!s))];
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
    depositUrl,
    depositUrls: [] as unknown[],
    explorerAddress: /^0x[0-9a-f]{40}$/.test(src.identifier) ? src.identifier : '',
    hidden: false,
    tvl: m?.tvl ?? 0,
    apr: m?.apr ?? 0,
    dailyRewards: m?.daily_rewards ?? 0,
    nativeApr: m?.native_apr ?? 0,
    totalApr: (m?.apr ?? 0) + (m?.native_apr ?? 0),
    maxDailyRewards: m?.max_daily_rewards ?? null,
    maxApr: null,
    liveCampaigns,
    lastCampaignCreatedAt: Math.max(...src.campaigns.map((c) => Math.floor(c.created_at.getTime() / 1000))),
    liveCampaignsForCreator: 0,
    soonCampaignsForCreator: 0,
    pastCampaignsForCreator: 0,
    earliestCampaignStart: Math.min(...starts),
    latestCampaignStart: Math.max(...starts),
    earliestCampaignEnd: Math.min(...ends),
    latestCampaignEnd: Math.max(...ends),
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
    tvlRecord: (m?.records['tvlRecord'] as Record<string, unknown> | undefined) ?? {
      total: 0,
      timestamp,
      breakdowns: [] as unknown[],
    },
    rewardsRecord: (m?.records['rewardsRecord'] as Record<string, unknown> | undefined) ?? {
      total: 0,
      timestamp,
      breakdowns: [] as unknown[],
    },
    stablecoin: src.target?.is_stablecoin ?? false,
    campaignWindows: mergeWindows(windows),
    campaignTypes: [...new Set(src.campaigns.map((c) => c.campaign_type))],
    campaignIds: src.campaigns.map((c) => c.campaign_id),
    creatorAddresses: [...new Set(src.campaigns.map((c) => c.creator))],
    rewardTokenSymbols: rewardSymbols,
    rewardTokenTypes: [...new Set(src.campaigns.map((c) => c.reward_type ?? 'TOKEN'))],
    programSlugs: src.program_slugs ?? ([] as string[]),
    creatorSlugs: [...new Set(src.campaigns.map((c) => c.creator_id).filter((id): id is string => !!id))].sort(),
    chainName,
    // Search-only: true when every reward token is a test token / a point token (`test`, `point` filters).
    allRewardsTest: src.campaigns.every((c) => c.reward_is_test === true),
    allRewardsPoint: src.campaigns.every((c) => c.reward_type === 'POINT'),
    // excludeSubCampaigns keeps opportunities with at least one campaign that is not a sub-campaign.
    hasRootCampaign: src.campaigns.some((c) => !c.parent_campaign_id),
    searchName: foldText(name),
    searchText: foldText(
      [
        name,
        protocol?.name ?? '',
        src.type,
        campaignTypeName(src.campaigns[0]!.campaign_type),
        src.identifier,
        src.target?.symbol ?? '',
        src.target?.name ?? '',
        chainName,
        ...rewardSymbols,
      ].join(' '),
    ),
    indexedAt: new Date(now * 1000).toISOString(),
  };
}

export type OpportunityDocument = NonNullable<ReturnType<typeof toOpportunityDocument>>;
