import type { ApiDeps } from '../../deps.js';
import { ValidationError } from '../../errors.js';
import { campaignVisibilityOf } from '../../visibility/campaignVisibility.js';
import { splitList } from '../campaigns/params.js';
import type { RewardTotalsQuery, UnclaimQuery } from './schema.js';
import { campaignLiveTotals, liveUnclaimed, tokenLiveTotals } from './totals.js';

/** Exactly one of two fields: a 400 naming the first when neither is given, the second when both are. */
export function oneOf(first: string, second: string, a: unknown, b: unknown): void {
  if (a === undefined && b === undefined)
    throw new ValidationError([{ field: first, message: `or ${second} is required` }]);
  if (a !== undefined && b !== undefined)
    throw new ValidationError([{ field: second, message: `must not be given with ${first}` }]);
}

/**
 * The live totals a /rewards/total or /count query asks for (campaign or token), for the caller
 * `state`. Shared with GraphQL `rewardsTotal` / `rewardsCount` (api/graphql/totals.ts).
 */
export async function totalsOf(deps: ApiDeps, q: RewardTotalsQuery, state: Parameters<typeof campaignVisibilityOf>[1]) {
  oneOf('campaignId', 'token', q.campaignId, q.token);
  const visible = await campaignVisibilityOf(deps, state, true);
  if (q.campaignId !== undefined) {
    const t = await campaignLiveTotals(deps, q.chainId, q.campaignId, visible);
    return { chainId: q.chainId, campaignId: q.campaignId.toLowerCase(), ...t };
  }
  const t = await tokenLiveTotals(deps, q.chainId, q.token!, visible);
  return { chainId: q.chainId, token: q.token!.toLowerCase(), ...t };
}

/**
 * The unclaimed amounts a /rewards/unclaim query asks for, for the caller `state`: campaignId (or
 * the token) → units. Shared with GraphQL `rewardsUnclaimed` (api/graphql/totals.ts).
 */
export async function unclaimedOf(
  deps: ApiDeps,
  q: UnclaimQuery,
  state: Parameters<typeof campaignVisibilityOf>[1],
): Promise<Record<string, string>> {
  const campaignIds = splitList(q.campaignIds);
  oneOf('campaignIds', 'token', campaignIds, q.token);
  const visible = await campaignVisibilityOf(deps, state, true);
  return liveUnclaimed(deps, q.chainId, campaignIds ? { campaignIds } : { token: q.token! }, visible);
}
