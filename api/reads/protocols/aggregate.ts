import { curatedProtocolOf, type Protocol, type ProtocolCurations } from '../../../domain/protocols.js';
import type { OpportunityFacts } from './repo.js';
import type { ListProtocolsQuery } from './schema.js';

/** A protocol with the figures aggregated over its matching opportunities. */
export type ProtocolAggregate = Protocol & {
  dailyRewards: number;
  numberOfLiveCampaigns: number;
  opportunityLiveTags: string[];
};

/** Pure: whether an opportunity passes the opportunity-level filters (test, chain, status, tag, token types). */
export function opportunityMatches(o: OpportunityFacts, q: ListProtocolsQuery): boolean {
  if (!q.test && o.isTestChain) return false;
  if (q.opportunityChain !== undefined && o.chainId !== q.opportunityChain) return false;
  if (q.status && !q.status.split(',').includes(o.status)) return false;
  if (q.opportunityTag && !o.tags.includes(q.opportunityTag)) return false;
  const tokenTypes: readonly string[] | undefined = q.tokenTypes;
  if (tokenTypes && !o.tokenTypes.some((t) => tokenTypes.includes(t))) return false;
  return true;
}

/** Pure: whether a protocol passes the protocol-level filters (id, ids, name substring, any of tags). */
export function protocolMatches(p: Protocol, q: ListProtocolsQuery): boolean {
  if (q.id && p.id !== q.id) return false;
  if (q.ids && !q.ids.includes(p.id)) return false;
  if (q.name && !p.name.toLowerCase().includes(q.name.toLowerCase())) return false;
  if (q.tags && !p.tags.some((t) => q.tags!.includes(t))) return false;
  return true;
}

/**
 * Pure: groups matching opportunities by the protocol of their campaign type (domain/protocols.ts, with the back
 * office's `curations` applied, so `name` and `tags` filter on the corrected values;
 * types naming none are skipped), sums daily rewards and live campaigns (sub-campaigns left out with
 * `excludeSubCampaigns`), then sorts by daily rewards, live campaigns (both descending) and id, and
 * returns the requested page.
 */
export function aggregateProtocols(
  opportunities: readonly OpportunityFacts[],
  q: ListProtocolsQuery,
  curations?: ProtocolCurations,
): ProtocolAggregate[] {
  const byId = new Map<string, ProtocolAggregate>();
  for (const o of opportunities) {
    const protocol = curatedProtocolOf(o.type, curations);
    if (!protocol || !protocolMatches(protocol, q) || !opportunityMatches(o, q)) continue;
    const agg = byId.get(protocol.id) ?? {
      ...protocol,
      dailyRewards: 0,
      numberOfLiveCampaigns: 0,
      opportunityLiveTags: [],
    };
    agg.dailyRewards += o.dailyRewards;
    agg.numberOfLiveCampaigns += q.excludeSubCampaigns ? o.liveRootCampaigns : o.liveCampaigns;
    if (o.status === 'LIVE') agg.opportunityLiveTags = [...new Set([...agg.opportunityLiveTags, ...o.tags])];
    byId.set(protocol.id, agg);
  }
  return [...byId.values()]
    .sort(
      (a, b) =>
        b.dailyRewards - a.dailyRewards ||
        b.numberOfLiveCampaigns - a.numberOfLiveCampaigns ||
        a.id.localeCompare(b.id),
    )
    .slice(q.page * q.items, (q.page + 1) * q.items);
}
