import type { StoringCampaignRow } from '../../reads/opportunityHistory.js';
import { storingIdsOf, type StoringIdsNode } from '../storingIds.js';
import type { OpportunityStatusFilter } from '../../reads/opportunities/schema.js';

export { storingIdsOf, type StoringIdsNode };

const statusAt = (row: StoringCampaignRow, now: number): OpportunityStatusFilter =>
  Number(row.start_timestamp) > now ? 'SOON' : Number(row.end_timestamp) <= now ? 'PAST' : 'LIVE';

/**
 * Pure: one tree per root campaign of the opportunity (no parent among `rows`) whose status at
 * `now` is in `statuses`; PAST roots are always excluded. Sub-campaigns are not status-filtered.
 * Nodes (internal campaign ids) and children are ordered by id.
 */
export function buildStoringIdTrees(
  rows: StoringCampaignRow[],
  opportunityId: string,
  statuses: OpportunityStatusFilter[],
  now: number,
): StoringIdsNode[] {
  const children = new Map<string, StoringCampaignRow[]>();
  for (const r of rows)
    if (r.parent_campaign_id) children.set(r.parent_campaign_id, [...(children.get(r.parent_campaign_id) ?? []), r]);
  const byId = new Set(rows.map((r) => r.id));
  const node = (r: StoringCampaignRow, seen: Set<string>): StoringIdsNode => ({
    campaignId: r.id,
    storingIds: storingIdsOf(r),
    subCampaigns: (children.get(r.id) ?? [])
      .filter((c) => !seen.has(c.id))
      .sort(byCampaignId)
      .map((c) => node(c, new Set([...seen, c.id]))),
  });
  return rows
    .filter((r) => r.opportunity_id === opportunityId && !(r.parent_campaign_id && byId.has(r.parent_campaign_id)))
    .filter((r) => statusAt(r, now) !== 'PAST' && statuses.includes(statusAt(r, now)))
    .sort(byCampaignId)
    .map((r) => node(r, new Set([r.id])));
}

const byCampaignId = (a: StoringCampaignRow, b: StoringCampaignRow) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
