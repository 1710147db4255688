import type { OpportunityCampaign, OpportunitySource } from './sources.js';

export type CampaignWindow = { start: number; end: number };
export type OpportunityStatus = 'NONE' | 'PAST' | 'LIVE' | 'SOON';

/**
 * What an opportunity document needs of its public campaigns, aggregated: the same whether
 * PostgreSQL computes it over the rows (domain/projection/opportunitySources.ts, so building an
 * opportunity of a million campaigns holds no campaign in memory) or `summarizeCampaigns` over a
 * list. Sets are distinct and sorted.
 */
export type CampaignSummary = {
  count: number;
  /** Campaigns running at the time of the summary (start ≤ now < end). */
  live: number;
  /** Whether a campaign starts after that time. */
  soon: boolean;
  /** Union of the campaign windows (mergeWindows). */
  windows: CampaignWindow[];
  earliestStart: number;
  latestStart: number;
  earliestEnd: number;
  latestEnd: number;
  /** Unix seconds of the newest campaign. */
  lastCreatedAt: number;
  /** Campaign type of the oldest campaign (created_at, then id). */
  firstCampaignType: number;
  campaignTypes: number[];
  creators: string[];
  /** Registered creators (creators table) of the campaigns' creator addresses. */
  creatorIds: string[];
  rewardSymbols: string[];
  /** Reward token types, TOKEN for an unknown token. */
  rewardTypes: string[];
  /** First non-empty `params.url` of the campaigns, oldest first; '' when none. */
  depositUrl: string;
  allRewardsTest: boolean;
  allRewardsPoint: boolean;
  /** At least one campaign is not a sub-campaign. */
  hasRootCampaign: boolean;
};

/** An opportunity with its public campaigns summarized (what the projector loads: domain/projection/opportunitySources.ts). */
export type OpportunitySummarySource = Omit<OpportunitySource, 'campaigns'> & {
  /** Null when the opportunity has no public campaign. */
  summary: CampaignSummary | null;
};

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

/** Pure: the status of a summary, as `opportunityStatus` over its campaigns' windows at the summary's time. */
export function summaryStatus(summary: CampaignSummary): { status: OpportunityStatus; liveCampaigns: number } {
  if (summary.live) return { status: 'LIVE', liveCampaigns: summary.live };
  return { status: summary.soon ? 'SOON' : summary.count ? 'PAST' : 'NONE', liveCampaigns: 0 };
}

/** Pure: distinct values in code-unit (strings) or numeric order. */
export const distinctSorted = <T extends string | number>(values: T[]): T[] =>
  [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** Pure: the summary of `campaigns` at `now` (unix seconds); null without campaigns. */
export function summarizeCampaigns(campaigns: readonly OpportunityCampaign[], now: number): CampaignSummary | null {
  if (!campaigns.length) return null;
  const oldestFirst = [...campaigns].sort(
    (a, b) => a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const windows = campaigns.map((c) => ({ start: Number(c.start_timestamp), end: Number(c.end_timestamp) }));
  const starts = windows.map((w) => w.start);
  const ends = windows.map((w) => w.end);
  return {
    count: campaigns.length,
    live: windows.filter((w) => w.start <= now && now < w.end).length,
    soon: windows.some((w) => w.start > now),
    windows: mergeWindows(windows),
    earliestStart: Math.min(...starts),
    latestStart: Math.max(...starts),
    earliestEnd: Math.min(...ends),
    latestEnd: Math.max(...ends),
    lastCreatedAt: Math.max(...campaigns.map((c) => Math.floor(c.created_at.getTime() / 1000))),
    firstCampaignType: oldestFirst[0]!.campaign_type,
    campaignTypes: distinctSorted(campaigns.map((c) => c.campaign_type)),
    creators: distinctSorted(campaigns.map((c) => c.creator)),
    creatorIds: distinctSorted(campaigns.map((c) => c.creator_id).filter((id): id is string => !!id)),
    rewardSymbols: distinctSorted(campaigns.map((c) => c.reward_symbol).filter((s): s is string => !!s)),
    rewardTypes: distinctSorted(campaigns.map((c) => c.reward_type ?? 'TOKEN')),
    depositUrl:
      oldestFirst.map((c) => c.params['url']).find((u): u is string => typeof u === 'string' && u.length > 0) ?? '',
    allRewardsTest: campaigns.every((c) => c.reward_is_test === true),
    allRewardsPoint: campaigns.every((c) => c.reward_type === 'POINT'),
    hasRootCampaign: campaigns.some((c) => !c.parent_campaign_id),
  };
}
