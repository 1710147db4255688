import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { describe } from '../../openapi/describe.js';
import { arr, bool, decimal, int, nullable, num, obj, str, stringMap } from '../../openapi/schemaHelpers.js';
import { validate } from '../../validate.js';
import { DISTRIBUTED_GROUPS } from '../../reads/reward-totals/distributed.js';
import {
  campaignPathTotalsHandler,
  distributedByToken,
  distributedHandler,
  distributedOpportunitiesHandler,
  groupDistributed,
  rewardCountHandler,
  rewardTotalHandler,
  tokenPathTotalsHandler,
  unclaimHandler,
} from './handlers.js';
import {
  campaignTotalsParams,
  chainOnlyQuery,
  distributedOpportunitiesQuery,
  distributedQuery,
  rewardTotalsQuery,
  tokenTotalsQuery,
  unclaimQuery,
} from '../../reads/reward-totals/schema.js';

const both = (path: string) => [path, `${path}/`];
const liveRootLine =
  'The live root is the one the Distributor verifies claims against now (its tree verified); `root` is null without one, and the figures are then 0. A private campaign counts only for callers who may see it (404 for a campaign id the caller may not see, as for one that does not exist).';
const campaignTotal = obj({ chainId: int, campaignId: str, root: nullable(str), amount: decimal });
const campaignCount = obj({ chainId: int, campaignId: str, root: nullable(str), count: int });
const tokenTotal = obj({ chainId: int, token: str, rewardTokenId: str, root: nullable(str), amount: decimal });
const tokenCount = obj({ chainId: int, token: str, rewardTokenId: str, root: nullable(str), count: int });
const either = (a: ReturnType<typeof obj>, b: ReturnType<typeof obj>) => ({ anyOf: [a, b] });
const usdSeries = { anyOf: [num, stringMap(num)] };
const usdByKey = { anyOf: [stringMap(num), stringMap(stringMap(num))] };
const windowLine =
  "Over the window `from`..`to` (dates, date-times or Unix timestamps, inclusive; hosted `since` = `from`; default: since the first root, up to the live root), each root of each chain counted once: what its campaigns hold more than in the root before it, valued at the token's daily close of the root's day (unpriced amounts count 0). Every filter of GET /v4/campaigns applies (default: no test tokens, no hidden or private campaigns; `showPrivate=true` adds the private ones the caller may see). `grain=month` answers per month (`YYYY-MM`, UTC) instead, in order.";

/** /v4/rewards/total, /count, /unclaim and /total/distributed: reward totals from the per-tree rollups (issue #33). */
export function rewardTotalsRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(
    both('/rewards/total'),
    describe({
      summary: 'Total earned of a campaign or a token in the live root',
      description: `Sum of the amounts of campaign \`campaignId\` (or of token \`token\`) on \`chainId\` in the live root, token units as a string. ${liveRootLine}`,
      response: either(campaignTotal, tokenTotal),
      errors: [404],
    }),
    validate({ query: rewardTotalsQuery }),
    rewardTotalHandler(deps),
  );
  router.get(
    both('/rewards/count'),
    describe({
      summary: 'Recipients of a campaign or a token in the live root',
      description: `How many addresses campaign \`campaignId\` (or token \`token\`) rewards on \`chainId\` in the live root. ${liveRootLine}`,
      response: either(campaignCount, tokenCount),
      errors: [404],
    }),
    validate({ query: rewardTotalsQuery }),
    rewardCountHandler(deps),
  );
  for (const [figure, response] of [
    ['total', campaignTotal],
    ['count', campaignCount],
  ] as const) {
    router.get(
      both(`/rewards/campaign/:campaignId/${figure}`),
      describe({
        summary: `${figure === 'total' ? 'Total earned' : 'Recipients'} of a campaign in the live root (hosted path)`,
        description: `As GET /v4/rewards/${figure}?campaignId=. ${liveRootLine}`,
        response,
        errors: [404],
      }),
      validate({ params: campaignTotalsParams, query: chainOnlyQuery }),
      campaignPathTotalsHandler(deps, figure === 'total' ? 'amount' : 'count'),
    );
  }
  for (const [figure, response] of [
    ['total', tokenTotal],
    ['count', tokenCount],
  ] as const) {
    router.get(
      both(`/rewards/token/${figure}`),
      describe({
        summary: `${figure === 'total' ? 'Total earned' : 'Recipients'} of a reward token in the live root (hosted path)`,
        description: `As GET /v4/rewards/${figure}?token=, the token given as \`address\`. ${liveRootLine}`,
        response,
      }),
      validate({ query: tokenTotalsQuery }),
      tokenPathTotalsHandler(deps, figure === 'total' ? 'amount' : 'count'),
    );
  }
  router.get(
    both('/rewards/unclaim'),
    describe({
      summary: 'Unclaimed amounts in the live root, per campaign or for a token',
      description: `Map of each campaign of \`campaignIds\` (or the token \`token\`) to what its recipients earned in the live root and have not claimed on chain, token units as strings. Claims are per recipient and token: a recipient's unclaimed amount is shared among the campaigns of its leaf pro rata (rounded down). Campaigns unknown or hidden from the caller are left out. ${liveRootLine}`,
      response: stringMap(decimal),
    }),
    validate({ query: unclaimQuery }),
    unclaimHandler(deps),
  );
  router.get(
    both('/rewards/total/distributed'),
    describe({
      summary: 'USD distributed by the live roots over a window (a number; per month with grain=month)',
      description: windowLine,
      response: usdSeries,
    }),
    validate({ query: distributedQuery }),
    distributedHandler(deps, 'type', (rows) => groupDistributed(rows, null)),
  );
  for (const [group, keyOf] of Object.entries(DISTRIBUTED_GROUPS)) {
    router.get(
      both(`/rewards/total/distributed/by-${group}`),
      describe({
        summary: `USD distributed by the live roots over a window, per ${group.replace(/s$/, '')}`,
        description: `${windowLine} Keyed by ${group === 'chains' ? 'distribution chain id' : group === 'types' ? 'campaign type' : 'main protocol id (`none` without one)'}.`,
        response: usdByKey,
      }),
      validate({ query: distributedQuery }),
      distributedHandler(deps, 'type', (rows) => groupDistributed(rows, keyOf)),
    );
  }
  router.get(
    both('/rewards/total/distributed/by-tokens'),
    describe({
      summary: 'Token units and USD distributed by the live roots over a window, per chain and token',
      description: `${windowLine} One item per chain, token (and month), largest USD first within a month.`,
      response: arr(
        obj({ chainId: int, address: str, period: str, amount: decimal, usd: num, unpriced: bool }, ['period']),
      ),
    }),
    validate({ query: distributedQuery }),
    distributedHandler(deps, 'token', distributedByToken),
  );
  router.get(
    both('/rewards/total/distributed/by-opportunities'),
    describe({
      summary: 'The opportunities whose campaigns the live roots distributed the most USD to, over a window',
      description: `${windowLine.replace(/ `grain=month`.*$/, '')} Summed per opportunity of the campaigns (campaigns without one are left out), largest first (ties by id), \`items\` of them (default 10, at most 100); \`name\` and \`chainId\` are the opportunity's, null when no opportunity document has the id. Ours: the explorer's analytics view.`,
      response: arr(
        obj({
          opportunityId: str,
          name: nullable(str),
          chainId: nullable(int),
          usd: num,
          campaigns: int,
        }),
      ),
    }),
    validate({ query: distributedOpportunitiesQuery }),
    distributedOpportunitiesHandler(deps),
  );
  return router;
}
