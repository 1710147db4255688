/**
 * Campaign documents include private campaigns, so they are searched only through
 * api/visibility/campaignSearch.ts, which applies the caller's visibility to every query. That
 * module passes this token to searchOnce / searchPage; a search of a campaigns index without it
 * throws (a route cannot read campaign documents around the visibility rule), and an architecture
 * test checks that no other module names the token or the campaigns index.
 */
export const CAMPAIGN_VISIBILITY_APPLIED: unique symbol = Symbol('campaign visibility applied');

/** Read alias, write alias or a concrete version of a campaigns index (internal/es.ts indexNames). */
const CAMPAIGNS_INDEX = /-campaigns(_write|_v\d+)?$/;

/** Throws when `index` holds campaign documents and the search did not come through the visibility layer. */
export function assertCampaignVisibility(index: string, applied: symbol | undefined): void {
  if (CAMPAIGNS_INDEX.test(index) && applied !== CAMPAIGN_VISIBILITY_APPLIED)
    throw new Error(`search of ${index} bypasses campaign visibility: use api/visibility/campaignSearch.ts`);
}
