import { indexNames } from '../../../internal/es.js';
import type { ApiDeps } from '../../deps.js';
import { searchOnce } from '../../search/searchOnce.js';
import type { FilteredRow } from './filteredRows.js';

/** One opportunity of the top: what its counted campaigns distributed, in USD. */
export type DistributedOpportunity = {
  opportunityId: string;
  /** The opportunity's name and chain (its document), null when no opportunity document has the id. */
  name: string | null;
  chainId: number | null;
  usd: number;
  /** Campaigns of the opportunity that distributed over the window (under the filters). */
  campaigns: number;
};

/**
 * Pure: the `items` opportunities whose campaigns distributed the most USD, largest first (ties by
 * id, so a page is stable); rows of a campaign without an opportunity are left out.
 */
export function topDistributedOpportunities(
  rows: readonly FilteredRow[],
  items: number,
): Omit<DistributedOpportunity, 'name' | 'chainId'>[] {
  const byOpportunity = new Map<string, { usd: number; campaigns: Set<string> }>();
  for (const r of rows) {
    const id = r.campaign.opportunityId;
    if (!id) continue;
    const o = byOpportunity.get(id) ?? { usd: 0, campaigns: new Set<string>() };
    o.usd += r.usd;
    o.campaigns.add(`${r.chainId}:${r.campaignId}`);
    byOpportunity.set(id, o);
  }
  return [...byOpportunity]
    .map(([opportunityId, o]) => ({ opportunityId, usd: o.usd, campaigns: o.campaigns.size }))
    .sort((a, b) => b.usd - a.usd || a.opportunityId.localeCompare(b.opportunityId))
    .slice(0, items);
}

/** The top with each opportunity's name and chain, from one search by id on the opportunities read alias. */
export async function withOpportunityNames(
  deps: Pick<ApiDeps, 'es' | 'config'>,
  top: Omit<DistributedOpportunity, 'name' | 'chainId'>[],
): Promise<DistributedOpportunity[]> {
  if (!top.length) return [];
  const res = await searchOnce<{ id: string; name: string; chainId: number }>(
    deps,
    indexNames(deps.config.esIndexPrefix, 'opportunities').read,
    {
      size: top.length,
      track_total_hits: false,
      _source: ['id', 'name', 'chainId'],
      query: { terms: { id: top.map((o) => o.opportunityId) } },
    },
  );
  const docs = new Map(res.hits.hits.flatMap((h) => (h._source ? [[h._source.id, h._source] as const] : [])));
  return top.map((o) => {
    const doc = docs.get(o.opportunityId);
    return {
      opportunityId: o.opportunityId,
      name: doc?.name ?? null,
      chainId: doc?.chainId ?? null,
      usd: o.usd,
      campaigns: o.campaigns,
    };
  });
}
