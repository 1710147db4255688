import {
  opportunityProtocol,
  type Protocol,
  type ProtocolCatalogue,
  protocolCatalogue,
} from '../../../domain/protocols.js';
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

/** Pure: whether the query filters on opportunities (then only protocols with a matching one are listed). */
export function filtersOpportunities(q: ListProtocolsQuery): boolean {
  return (
    q.opportunityChain !== undefined ||
    q.status !== undefined ||
    q.opportunityTag !== undefined ||
    q.tokenTypes !== undefined
  );
}

/**
 * Pure: every protocol of the catalogue (the registry's with the back office's corrections and the protocols it added;
 * the registry alone without one) that passes the protocol filters, with the figures of its matching opportunities:
 * an opportunity counts for the protocol the back office set on it, else its campaign type's (types naming none are
 * skipped). Daily rewards and live campaigns are summed (sub-campaigns left out with `excludeSubCampaigns`). With an
 * opportunity filter (`opportunityChain`, `status`, `opportunityTag`, `tokenTypes`) only protocols with a matching
 * opportunity are listed; without one, every protocol is (its figures 0 when nothing matches). Sorted by daily
 * rewards, live campaigns (both descending) and id; the requested page.
 */
export function aggregateProtocols(
  opportunities: readonly OpportunityFacts[],
  q: ListProtocolsQuery,
  catalogue: ProtocolCatalogue = protocolCatalogue(new Map(), []),
): ProtocolAggregate[] {
  const byId = new Map<string, ProtocolAggregate>();
  const fresh = (p: Protocol): ProtocolAggregate => ({
    ...p,
    dailyRewards: 0,
    numberOfLiveCampaigns: 0,
    opportunityLiveTags: [],
  });
  if (!filtersOpportunities(q)) for (const p of catalogue.values()) if (protocolMatches(p, q)) byId.set(p.id, fresh(p));
  for (const o of opportunities) {
    const protocol = opportunityProtocol(o.type, o.mainProtocolId, catalogue);
    if (!protocol || !protocolMatches(protocol, q) || !opportunityMatches(o, q)) continue;
    const agg = byId.get(protocol.id) ?? fresh(protocol);
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
