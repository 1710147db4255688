import { campaignTypeName } from '../../../domain/campaignTypes.js';
import { campaignDbId, opportunityDbId } from '../../../domain/ids.js';
import { NO_PROTOCOL_KEY, protocolOf } from '../../../domain/protocols.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { ValidationError, type FieldError } from '../../errors.js';
import { loadCampaignListIds } from '../campaignLists.js';
import {
  loadDistributedGroups,
  loadDistributedOpportunityGroups,
  loadDistributedRewards,
  type DistributedCampaignFilter,
  type DistributedOpportunityGroup,
  type DistributedBy,
  type DistributedRow,
  type DistributedSource,
} from '../distributedRewards.js';
import { searchCampaigns } from '../../visibility/campaignSearch.js';
import { parseCreatedBound, toListParams, type CampaignListParams } from '../campaigns/params.js';
import { buildListQuery, type PrivateVisibility } from '../campaigns/query.js';
import { opportunityIdsByWord } from '../campaigns/searchOpportunities.js';
import { searchWords } from '../campaigns/searchWords.js';
import type { DistributedQuery } from './schema.js';
import { topDistributedOpportunities, type DistributedOpportunity } from './topOpportunities.js';

// The row types live apart, so topOpportunities.ts can name them without importing this module back.
import type { CampaignFacets, FilteredRow } from './filteredRows.js';
export type { CampaignFacets, FilteredRow };

/** Campaign ids per search: a terms filter of this many ids, answered in one page. */
const BATCH = 5_000;

/** A bare calendar date (`2026-11-28`): as `to`, it names the whole day. */
const BARE_DATE = /^\s*\d{4}-\d{2}-\d{2}\s*$/;
const DAY_SECONDS = 86_400;

/**
 * Pure: the window's bounds in Unix seconds, both inclusive (`since` is hosted's name of `from`), or
 * the field errors. A bare date as `to` includes that whole day (its last second), as documented: a
 * root at 18:00 on `to=2026-11-28` counts. A `to` in the future is no error (up to the live root).
 */
export function toWindow(q: DistributedQuery): { from: number | null; to: number | null } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const bound = (field: string, value: string | undefined) => {
    const iso = parseCreatedBound(value);
    if (iso === undefined) errors.push({ field, message: 'must be a date, a date-time string or a Unix timestamp' });
    return iso ? Math.floor(Date.parse(iso) / 1000) : null;
  };
  const from = bound(q.from !== undefined ? 'from' : 'since', q.from ?? q.since);
  const toStart = bound('to', q.to);
  const to = toStart !== null && BARE_DATE.test(q.to ?? '') ? toStart + DAY_SECONDS - 1 : toStart;
  if (from !== null && to !== null && from > to) errors.push({ field: 'to', message: 'must not be before from' });
  return errors.length ? { errors } : { from, to };
}

/** The window, the campaign-list params and the distribution chains of a /distributed query, or a 400. */
function parseDistributed(deps: ApiDeps, q: DistributedQuery) {
  const window = toWindow(q);
  const normalized = toListParams({ ...q, page: 0, items: 1 });
  const errors = [...('errors' in window ? window.errors : []), ...('errors' in normalized ? normalized.errors : [])];
  if (errors.length || 'errors' in window || 'errors' in normalized) throw new ValidationError(errors);
  const p = normalized.params;
  const configured = deps.config.chains.map((c) => c.id);
  const chainIds = p.distributionChainIds
    ? configured.filter((id) => p.distributionChainIds!.includes(id))
    : configured;
  return { params: p, amounts: { ...window, chainIds, grain: q.grain ?? null } };
}

/**
 * What a distributed figure is grouped by, for the campaigns the filters kept, and its sums: one
 * campaign's row (FilteredRow) or, on the PostgreSQL path, a group of campaigns sharing the facets.
 */
export type FacetRow = Omit<DistributedRow, 'campaignId'> & { campaign: Omit<CampaignFacets, 'opportunityId'> };
/** The rows of the USD routes (total, /by-chains, /by-types, /by-protocols): USD by chain, month and campaign. */
export type UsdRow = Pick<FacetRow, 'chainId' | 'period' | 'usd' | 'campaign'>;
/** The rows of /by-tokens: units and USD by chain, token and month. */
export type TokenRow = Pick<FacetRow, 'chainId' | 'token' | 'period' | 'amount' | 'usd' | 'unpriced'>;

/** Pure: a campaign type's name and main protocol, as the campaign document states them (toCampaignDocument). */
function typeFacets(campaignType: number) {
  const type = campaignTypeName(campaignType);
  return { type, mainProtocolId: protocolOf(type)?.id ?? null };
}

/** Whether any opportunity has a protocol set by the back office (partial index opportunities_main_protocol_idx). */
async function protocolsCurated(deps: ApiDeps): Promise<boolean> {
  const { rows } = await deps.pg.query<{ curated: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM opportunities WHERE main_protocol_id IS NOT NULL) AS curated',
  );
  return rows[0]?.curated === true;
}

/** Pure: an opportunity group's id as the campaign document states it, null when only its campaign data could tell. */
function opportunityOf(g: DistributedOpportunityGroup): string | null {
  if (g.opportunityId !== null) return g.opportunityId;
  if (g.mainParameter === null) return null;
  return opportunityDbId(g.computeChainId, campaignTypeName(g.campaignType), g.mainParameter);
}

/** Which path answered a /distributed read: the facet rollup, the exact GROUP BY, or the Elasticsearch filters. */
export type DistributedPath = DistributedSource | 'search';

/**
 * What the live roots distributed over the window (and month), for the campaigns the filters of
 * GET /v4/campaigns keep, grouped `by` campaign type (UsdRow) or token (TokenRow). Without filters,
 * or with only those PostgreSQL applies itself (pgCampaignFilter), a few rows per chain, month and
 * type or token (loadDistributedGroups: from the facet rollup when it is fresh, else one exact GROUP
 * BY over the per-tree deltas and the indexed campaigns). With other filters, filteredDistributed.
 * @returns the rows and which path answered.
 */
export async function distributedRows(
  deps: ApiDeps,
  q: DistributedQuery,
  visible: PrivateVisibility,
  by: 'type',
): Promise<{ rows: UsdRow[]; path: DistributedPath }>;
export async function distributedRows(
  deps: ApiDeps,
  q: DistributedQuery,
  visible: PrivateVisibility,
  by: 'token',
): Promise<{ rows: TokenRow[]; path: DistributedPath }>;
export async function distributedRows(
  deps: ApiDeps,
  q: DistributedQuery,
  visible: PrivateVisibility,
  by: DistributedBy,
): Promise<{ rows: UsdRow[] | TokenRow[]; path: DistributedPath }> {
  const { params, amounts } = parseDistributed(deps, q);
  const filter = pgCampaignFilter(params, visible, nowSeconds(deps));
  // PostgreSQL's groups know a campaign's protocol only from its type: once the back office gave an opportunity
  // another one (mainProtocolId), the campaign documents, which carry it, answer instead.
  if (!filter || (by === 'type' && (await protocolsCurated(deps))))
    return { rows: await filteredDistributed(deps, q, visible), path: 'search' };
  if (by === 'token') {
    const { groups, source } = await loadDistributedGroups(deps.pg, 'token', amounts, filter);
    return { rows: groups, path: source };
  }
  const { groups, source } = await loadDistributedGroups(deps.pg, 'type', amounts, filter);
  const rows = groups.map(({ campaignType, ...g }) => ({
    ...g,
    campaign: { distributionChainId: g.chainId, ...typeFacets(campaignType) },
  }));
  return { rows, path: source };
}

/**
 * The `items` opportunities whose counted campaigns distributed the most USD over the window, as
 * topDistributedOpportunities ranks them: on the PostgreSQL path (pgCampaignFilter) summed and
 * counted per opportunity in PostgreSQL (loadDistributedOpportunityGroups: from the opportunity
 * rollup when it is fresh, else exactly), else through the campaign search.
 * @returns the top and which path answered.
 */
export async function distributedTopOpportunities(
  deps: ApiDeps,
  q: DistributedQuery,
  visible: PrivateVisibility,
  items: number,
): Promise<{ top: Omit<DistributedOpportunity, 'name' | 'chainId'>[]; path: DistributedPath }> {
  const { params, amounts } = parseDistributed(deps, q);
  const filter = pgCampaignFilter(params, visible, nowSeconds(deps));
  if (filter) {
    const { groups, source } = await loadDistributedOpportunityGroups(deps.pg, amounts, filter, items);
    const merged = new Map<string, { usd: number; campaigns: number }>();
    let derivable = true;
    for (const g of groups) {
      const id = opportunityOf(g);
      if (id === null) derivable = false;
      else {
        // Groups of one opportunity under several types hold different campaigns: their counts add up.
        const o = merged.get(id) ?? { usd: 0, campaigns: 0 };
        o.usd += g.usd;
        o.campaigns += g.campaigns;
        merged.set(id, o);
      }
    }
    if (derivable) {
      const top = [...merged]
        .map(([opportunityId, o]) => ({ opportunityId, ...o }))
        .sort((a, b) => b.usd - a.usd || a.opportunityId.localeCompare(b.opportunityId))
        .slice(0, items);
      return { top, path: source };
    }
  }
  return { top: topDistributedOpportunities(await filteredDistributed(deps, q, visible), items), path: 'search' };
}

/** The campaign-list params PostgreSQL filters on itself; any other one set sends a query to Elasticsearch. */
const PG_PARAMS = new Set([
  'page',
  'items',
  'distributionChainIds',
  'chainId',
  'statuses',
  'test',
  'excludeSubCampaigns',
]);

/**
 * Pure: the PostgreSQL form of the campaign filters when every one given is among PG_PARAMS (no
 * filter, distribution chains, compute chain, status, test, sub-campaigns excluded), else null.
 * onlySubCampaigns is allowed when false (its default).
 */
export function pgCampaignFilter(
  p: CampaignListParams,
  visible: PrivateVisibility,
  now: number,
): DistributedCampaignFilter | null {
  const others = Object.entries(p).filter(
    ([k, v]) => v !== undefined && !PG_PARAMS.has(k) && !(k === 'onlySubCampaigns' && v === false),
  );
  if (others.length) return null;
  return {
    ...(p.chainId !== undefined ? { computeChainId: p.chainId } : {}),
    ...(p.statuses ? { statuses: p.statuses } : {}),
    now,
    test: p.test,
    excludeSubCampaigns: p.excludeSubCampaigns,
    visible,
  };
}

/**
 * What the live roots distributed over the window per campaign, token (and month), for the
 * campaigns the filters of GET /v4/campaigns keep (its own parsing, toListParams, and query,
 * buildListQuery, restricted to the campaigns that distributed, by id, through the visibility-bound
 * campaign search): the amounts are summed in PostgreSQL (loadDistributedRewards), Elasticsearch
 * only says which campaigns count and their chain, type and protocol. Campaign ids of a tree that
 * no indexed campaign has are not counted. Used for the filters PostgreSQL does not apply itself
 * (pgCampaignFilter): every campaign that distributed is looked up, BATCH ids a search.
 */
export async function filteredDistributed(
  deps: ApiDeps,
  q: DistributedQuery,
  visible: PrivateVisibility,
): Promise<FilteredRow[]> {
  const { params: p, amounts } = parseDistributed(deps, q);
  const rows = await loadDistributedRewards(deps.pg, amounts);
  if (!rows.length) return [];
  const listIds =
    p.listOwner && p.campaignLists ? await loadCampaignListIds(deps.pg, p.listOwner, p.campaignLists) : undefined;
  const searchIds = p.search ? await opportunityIdsByWord(deps, searchWords(p.search)) : undefined;
  const { query } = buildListQuery(p, nowSeconds(deps), listIds, visible, searchIds);
  const ids = [...new Set(rows.map((r) => campaignDbId(r.chainId, r.campaignId)))];
  const facets = new Map<string, CampaignFacets>();
  for (let i = 0; i < ids.length; i += BATCH) {
    const batch = ids.slice(i, i + BATCH);
    const res = await searchCampaigns<CampaignFacets & { id: string }>(deps, visible, {
      size: batch.length,
      track_total_hits: false,
      _source: ['id', 'distributionChainId', 'type', 'mainProtocolId', 'opportunityId'],
      query: { bool: { filter: [query, { terms: { id: batch } }] } },
    });
    for (const h of res.hits.hits) if (h._source) facets.set(h._source.id, h._source);
  }
  return rows.flatMap((r) => {
    const campaign = facets.get(campaignDbId(r.chainId, r.campaignId));
    return campaign ? [{ ...r, campaign }] : [];
  });
}

/** The groupings of /rewards/total/distributed/by-…: each row's key. */
export const DISTRIBUTED_GROUPS = {
  chains: (r: UsdRow) => String(r.chainId),
  types: (r: UsdRow) => r.campaign.type,
  protocols: (r: UsdRow) => r.campaign.mainProtocolId ?? NO_PROTOCOL_KEY,
} as const;

/** Pure: USD per key, or per month then key with a grain (months in order; a series is one request). */
export function groupDistributed(
  rows: readonly UsdRow[],
  keyOf: ((r: UsdRow) => string) | null,
): number | Record<string, number> | Record<string, Record<string, number> | number> {
  const add = (map: Record<string, number>, key: string, usd: number) => {
    map[key] = (map[key] ?? 0) + usd;
  };
  const sorted = [...rows].sort((a, b) => (a.period ?? '').localeCompare(b.period ?? ''));
  if (!sorted.some((r) => r.period !== null)) {
    if (!keyOf) return rows.reduce((s, r) => s + r.usd, 0);
    const out: Record<string, number> = {};
    for (const r of sorted) add(out, keyOf(r), r.usd);
    return out;
  }
  const out: Record<string, Record<string, number> | number> = {};
  for (const r of sorted) {
    const period = r.period!;
    if (!keyOf) out[period] = ((out[period] as number | undefined) ?? 0) + r.usd;
    else add((out[period] ??= {}) as Record<string, number>, keyOf(r), r.usd);
  }
  return out;
}

/** Pure: per chain and token (and month), units and USD, with whether some amount had no price. */
export function distributedByToken(rows: readonly TokenRow[]) {
  const out = new Map<
    string,
    { chainId: number; address: string; period: string | null; amount: bigint; usd: number; unpriced: boolean }
  >();
  for (const r of rows) {
    const key = `${r.chainId}:${r.token}:${r.period ?? ''}`;
    const t = out.get(key) ?? {
      chainId: r.chainId,
      address: r.token,
      period: r.period,
      amount: 0n,
      usd: 0,
      unpriced: false,
    };
    t.amount += BigInt(r.amount);
    t.usd += r.usd;
    t.unpriced ||= r.unpriced;
    out.set(key, t);
  }
  return [...out.values()]
    .sort((a, b) => (a.period ?? '').localeCompare(b.period ?? '') || b.usd - a.usd)
    .map(({ period, amount, ...t }) => ({ ...t, ...(period ? { period } : {}), amount: amount.toString() }));
}
