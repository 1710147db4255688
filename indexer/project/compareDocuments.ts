import type { IndexFamily } from '../../search-mappings/aliases.js';

type Normalize = (value: unknown) => unknown;

const asIs: Normalize = (v) => v ?? null;
/** Order-insensitive lists (a set of ids, of windows). */
const asSet: Normalize = (v) =>
  Array.isArray(v) ? v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).sort() : (v ?? null);
/** Amounts are decimal strings; compare them as such whatever JSON type they come back as. */
const asString: Normalize = (v) => (v === null || v === undefined ? null : String(v));

/**
 * Fields the consistency check compares per family: the ones PostgreSQL determines and that do not
 * depend on when the document was built (no indexedAt, status or liveCampaigns: the status inputs,
 * campaignWindows, are compared instead).
 */
export const COMPARED_FIELDS: Record<IndexFamily, Record<string, Normalize>> = {
  campaigns: {
    campaignId: asIs,
    distributionChainId: asIs,
    computeChainId: asIs,
    type: asIs,
    campaignType: asIs,
    amount: asString,
    startTimestamp: asIs,
    endTimestamp: asIs,
    opportunityId: asIs,
    hasOverrides: asIs,
    rewardTokenId: asIs,
    creatorAddress: asIs,
  },
  opportunities: {
    chainId: asIs,
    type: asIs,
    identifier: asIs,
    action: asIs,
    name: asIs,
    campaignIds: asSet,
    campaignWindows: asSet,
    lastCampaignCreatedAt: asIs,
    // What free-text search reads: a document built by an older rule (issue 31) shows as stale.
    searchText: asIs,
  },
};

export type FieldDifference = { field: string; expected: unknown; actual: unknown };

/**
 * Pure: the compared fields where the document Elasticsearch holds (`actual`) differs from the one
 * PostgreSQL builds (`expected`), after normalizing sets and amounts.
 * @returns an empty array when they agree.
 */
export function compareDocuments(
  family: IndexFamily,
  expected: Record<string, unknown>,
  actual: Record<string, unknown>,
): FieldDifference[] {
  const out: FieldDifference[] = [];
  for (const [field, normalize] of Object.entries(COMPARED_FIELDS[family])) {
    const e = normalize(expected[field]);
    const a = normalize(actual[field]);
    if (JSON.stringify(e) !== JSON.stringify(a))
      out.push({ field, expected: expected[field] ?? null, actual: actual[field] ?? null });
  }
  return out;
}
