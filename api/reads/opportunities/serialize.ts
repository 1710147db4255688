import { unpricedOf } from '../../../domain/documents/unpriced.js';
import { opportunityStatus } from '../../../domain/documents/campaignSummary.js';
import type { OpportunityDocument } from '../../../domain/documents/opportunityDocument.js';
import type { ChainRecord, OpportunityRecord } from '../../../domain/documents/records.js';
import type { TvlStatus } from '../../../domain/tvlStatus.js';

/** `nativeAprRecord.description` of a document without a stored record (status `not-computed`): `nativeApr` 0 is then unknown. */
export const NATIVE_APR_UNKNOWN =
  "Unknown: the protocol's own yield (lending interest, pool fees) is not computed yet, so nativeApr 0 means unknown, not zero.";

/**
 * Pure: an opportunity search document → the public Opportunity record (OPPORTUNITY_RECORD_SCHEMA, domain), every
 * field named and search-only fields dropped. `status` and `liveCampaigns` are recomputed at `now`
 * from the campaign windows; `chain` is the current Chain record; bigints are decimal strings.
 */
export function serializeOpportunity(
  doc: OpportunityDocument,
  chains: ReadonlyMap<number, ChainRecord>,
  now: number,
): OpportunityRecord {
  // Windows are merged intervals: the status is exact at `now`; the live count is the projected one.
  const { status } = opportunityStatus(doc.campaignWindows, now);
  const liveCampaigns = status === 'LIVE' ? Math.max(1, doc.liveCampaigns) : 0;
  const aprTimestamp = String(doc.aprRecord.timestamp ?? '0');
  return {
    id: doc.id,
    chainId: doc.chainId,
    type: doc.type,
    identifier: doc.identifier,
    name: doc.name,
    description: doc.description,
    howToSteps: doc.howToSteps,
    status,
    action: doc.action,
    tags: doc.tags,
    mainProtocol: doc.mainProtocol,
    depositUrl: doc.depositUrl,
    depositUrls: doc.depositUrls,
    explorerAddress: doc.explorerAddress,
    hidden: doc.hidden,
    // The contract types tvl, apr and totalApr as numbers: an unknown one (null in the document) is
    // served as 0 and tvlRecord.status says why (#42, docs/api-behaviour.md#unknown-tvl).
    tvl: doc.tvl ?? 0,
    apr: doc.apr ?? 0,
    dailyRewards: doc.dailyRewards,
    ...unpricedOf(doc),
    nativeApr: doc.nativeApr,
    totalApr: doc.totalApr ?? 0,
    maxDailyRewards: doc.maxDailyRewards,
    maxApr: doc.maxApr,
    liveCampaigns,
    lastCampaignCreatedAt: doc.lastCampaignCreatedAt,
    liveCampaignsForCreator: doc.liveCampaignsForCreator,
    soonCampaignsForCreator: doc.soonCampaignsForCreator,
    pastCampaignsForCreator: doc.pastCampaignsForCreator,
    earliestCampaignStart: String(doc.earliestCampaignStart),
    latestCampaignStart: String(doc.latestCampaignStart),
    earliestCampaignEnd: String(doc.earliestCampaignEnd),
    latestCampaignEnd: String(doc.latestCampaignEnd),
    distributionType: doc.distributionType,
    tokens: doc.tokens,
    chain: chains.get(doc.chainId) ?? null,
    activePrograms: doc.activePrograms,
    protocol: doc.protocol,
    aprRecord: { ...doc.aprRecord, timestamp: aprTimestamp },
    // Documents of metrics stored before the native APR record (the metrics job's nativeAprRecord, with its
    // status) derive one: 0 is unknown, not zero (#42, docs/api-behaviour.md#native-apr).
    nativeAprRecord: doc.nativeAprRecord ?? {
      title: 'Native APR',
      description: NATIVE_APR_UNKNOWN,
      value: doc.nativeApr,
      status: 'not-computed',
      timestamp: aprTimestamp,
    },
    tvlRecord: { ...doc.tvlRecord, status: tvlStatusOfDocument(doc) },
    rewardsRecord: doc.rewardsRecord,
  };
}

/**
 * Pure: `tvlRecord.status` of a document (TvlStatus); documents projected before the status existed
 * say `ok` for a number and `read-failed` for an unknown TVL.
 */
export function tvlStatusOfDocument(doc: Pick<OpportunityDocument, 'tvl' | 'tvlRecord'>): TvlStatus {
  return doc.tvlRecord.status ?? (doc.tvl === null ? 'read-failed' : 'ok');
}

/** Pure: range-aggregation buckets → `{ data: [{ min, max, count }] }`, edges from `edges`. */
export function serializeBins(edges: number[], buckets: { doc_count: number }[]) {
  return { data: buckets.map((b, i) => ({ min: edges[i]!, max: edges[i + 1]!, count: b.doc_count })) };
}

/** Pure: a numeric aggregation value as a decimal string (`null` when the filtered set is empty). */
export function serializeDecimal(value: number | null | undefined): string | null {
  return value === null || value === undefined || !Number.isFinite(value) ? null : String(value);
}

/** Significant digits a double's sum keeps: past them are the rounding errors of the additions. */
const SUM_DIGITS = 15;

/**
 * Pure: a sum of doubles (Elasticsearch's `sum`) rounded to 15 significant digits, so the addition's
 * rounding noise never shows (`348773.97599999997` → `348773.976`); every input is a double, so no
 * digit of theirs is lost.
 */
export function roundSum(value: number): number {
  return Number.isFinite(value) && value !== 0 ? Number(value.toPrecision(SUM_DIGITS)) : value;
}

/** Pure: a sum as a decimal string, rounded as roundSum (`null` when the filtered set is empty). */
export function serializeSum(value: number | null | undefined): string | null {
  return serializeDecimal(value === null || value === undefined ? value : roundSum(value));
}

/** Pure: terms buckets → `[{ key, count, tvl, dailyRewards }]` (key as a string; sums as numbers). */
export function serializeGroups(
  buckets: {
    key: string | number;
    doc_count: number;
    tvl: { value: number | null };
    dailyRewards: { value: number | null };
  }[],
) {
  return buckets.map((b) => ({
    key: String(b.key),
    count: b.doc_count,
    tvl: roundSum(b.tvl.value ?? 0),
    dailyRewards: roundSum(b.dailyRewards.value ?? 0),
  }));
}
