import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { campaignRateHandler, opportunityRateHandler } from './handlers.js';
import { campaignIdParams, opportunityIdParams, opportunityQuery } from './schema.js';
import { describe } from '../../openapi/describe.js';
import { arr, int, nullable, num, obj, str } from '../../openapi/schemaHelpers.js';

const rateFields = {
  anchor: int,
  at: int,
  period: int,
  spread: num,
  tiers: arr({ type: 'object' }),
  nativeApr: num,
  liveRate: nullable(num),
  frozenRate: nullable(num),
  frozenRateDay: nullable(str),
  frozenMeanTvl: nullable(num),
  lastRecalculation: int,
  nextRecalculation: int,
  baselineApy: nullable(num),
  boostedApy: nullable(num),
  campaignApr: nullable(num),
  reason: nullable(str),
};
const campaignRateSchema = obj({ campaignId: str, opportunityId: str, curve: str, ...rateFields });
const opportunityRateSchema = obj({ opportunityId: str, ...rateFields });

/**
 * GET /v4/sofr-ratchet/campaign/{campaignId} and /opportunity/{id}: the spread ratchet of
 * domain/ratchet.ts from the stored benchmark rates (benchmark-rate job), the opportunity's TVL
 * history (opportunity_snapshots) and native APR (opportunity_metrics).
 */
export function ratchetRouter(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/sofr-ratchet' });
  router.get(
    '/campaign/:campaignId',
    describe({
      summary: 'Current ratchet rate from the campaign settings',
      description:
        'The current SOFR-spread ratchet rate of a campaign (internal id, `distributionChainId-campaignId` or the on-chain id alone), from its stored distribution settings: `campaignApr` per its curve, with the frozen mean TVL, last and next recalculation, live benchmark rate, baseline and boosted APYs. The APYs are null, with `reason` saying why, while no benchmark rate is in force; 404 for a campaign whose distribution parameters do not name SOFR_SPREAD_RATCHET.',
      response: campaignRateSchema,
    }),
    validate({ params: campaignIdParams }),
    campaignRateHandler(deps),
  );

  router.get(
    '/opportunity/:id',
    describe({
      summary: 'Ratchet rate of an opportunity at an explicit anchor',
      description:
        'The ratchet rate of an opportunity for an explicit `anchor` (Unix seconds), at time `at` (default now) with recalculation `period` (seconds): frozen mean TVL, last and next recalculation, live rate, baseline and boosted APYs (null with a `reason` while no benchmark rate is in force).',
      response: opportunityRateSchema,
    }),
    validate({ params: opportunityIdParams, query: opportunityQuery }),
    opportunityRateHandler(deps),
  );
  return router;
}
