import type { StoringCampaignRow } from '../../../indexer/store/opportunityHistory.js';
import type { OpportunityStatusFilter } from './schema.js';

/** JSON_AIRDROP (type 4) keeps no indexed state: its campaigns have no storing id. */
const STATELESS_TYPES = new Set([4]);

export type StoringIdsNode = { campaignId: string; storingIds: string[]; subCampaigns: StoringIdsNode[] };

/**
 * Pure: the storing ids of one campaign. Convention: the indexing state of a campaign is keyed by
 * the chain it is computed on and its main parameter, `${computeChainId}_${mainParameter}`, so
 * campaigns on the same pool share it; stateless types (JSON_AIRDROP) give [].
 */
export function storingIdsOf(row: StoringCampaignRow): string[] {
  if (STATELESS_TYPES.has(row.campaign_type) || !row.main_parameter) return [];
  return [`${row.compute_chain_id}_${row.main_parameter}`];
}

const statusAt = (row: StoringCampaignRow, now: number): OpportunityStatusFilter =>
  Number(row.start_timestamp) > now ? 'SOON' : Number(row.end_timestamp) <= now ? 'PAST' : 'LIVE';

/**
 * Pure: one tree per root campaign of the opportunity (no parent among `rows`) whose status at
 * `now` is in `statuses`; PAST roots are always excluded. Sub-campaigns are not status-filtered.
 * Nodes and children are ordered by on-chain campaign id.
 */
export function buildStoringIdTrees(rows: StoringCampaignRow[], opportunityId: string, statuses: OpportunityStatusFilter[], now: number): StoringIdsNode[] {
  const children = new Map<string, StoringCampaignRow[]>();
  for (const r of rows) if (r.parent_campaign_id) children.set(r.parent_campaign_id, [...(children.get(r.parent_campaign_id) ?? []), r]);
  const byId = new Set(rows.map((r) => r.id));
  const node = (r: StoringCampaignRow, seen: Set<string>): StoringIdsNode => ({
    campaignId: r.campaign_id,
    storingIds: storingIdsOf(r),
    subCampaigns: (children.get(r.id) ?? []).filter((c) => !seen.has(c.id)).sort(byCampaignId).map((c) => node(c, new Set([...seen, c.id]))),
  });
  return rows
    .filter((r) => r.opportunity_id === opportunityId && !(r.parent_campaign_id && byId.has(r.parent_campaign_id)))
    .filter((r) => statusAt(r, now) !== 'PAST' && statuses.includes(statusAt(r, now)))
    .sort(byCampaignId)
    .map((r) => node(r, new Set([r.id])));
}

const byCampaignId = (a: StoringCampaignRow, b: StoringCampaignRow) => (a.campaign_id < b.campaign_id ? -1 : a.campaign_id > b.campaign_id ? 1 : 0);
