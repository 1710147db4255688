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
    describe({ summary: 'Current ratchet rate from the campaign settings', response: campaignRateSchema }),
    validate({ params: campaignIdParams }),
    campaignRateHandler(deps),
  );

  router.get(
    '/opportunity/:id',
    describe({ summary: 'Ratchet rate of an opportunity at an explicit anchor', response: opportunityRateSchema }),
    validate({ params: opportunityIdParams, query: opportunityQuery }),
    opportunityRateHandler(deps),
  );
  return router;
}
