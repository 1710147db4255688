import Router from '@koa/router';
import type { Context } from 'koa';
import {
  computeRatchet,
  DEFAULT_RATCHET_SETTINGS,
  FREEZE_WINDOW,
  ratchetSettingsOf,
  recalculationTimes,
  type RatchetSettings,
} from '../../../domain/ratchet.js';
import { campaignVisibilityOf, resolveVisibleCampaignDbId } from '../../visibility/campaignVisibility.js';
import type { AuthState } from '../../identity/types.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { NotFoundError } from '../../errors.js';
import { fields, validate } from '../../validate.js';
import { resolveOpportunityId } from '../opportunities/readContext.js';
import { loadBenchmarkRates, loadOpportunityNativeApr, loadRatchetCampaign, meanTvl } from './repo.js';
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

type IdString = { readonly type: 'string'; readonly minLength: 1; readonly maxLength: 200 };
const idParams = <const N extends string>(name: N) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: [name],
    properties: { [name]: { type: 'string', minLength: 1, maxLength: 200 } } as { [K in N]: IdString },
  }) as const;
const opportunityQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['anchor'],
  properties: {
    anchor: fields.unixSeconds,
    at: fields.unixSeconds,
    period: { type: 'integer', minimum: 3600, maximum: 365 * 86_400 },
  },
} as const;

/**
 * GET /v4/sofr-ratchet/campaign/{campaignId} and /opportunity/{id}: the spread ratchet of
 * domain/ratchet.ts from the stored benchmark rates (benchmark-rate job), the opportunity's TVL
 * history (opportunity_snapshots) and native APR (opportunity_metrics).
 */
export function ratchetRouter(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/sofr-ratchet' });
  const rate = async (
    opportunityId: string,
    nativeApr: number,
    anchor: number,
    at: number,
    settings: RatchetSettings,
  ) => {
    const { lastRecalculation } = recalculationTimes(anchor, at, settings.period);
    const [rates, frozenMeanTvl] = await Promise.all([
      loadBenchmarkRates(deps.pg, at),
      meanTvl(deps.pg, opportunityId, lastRecalculation - FREEZE_WINDOW, lastRecalculation),
    ]);
    return computeRatchet({ rates, frozenMeanTvl, nativeApr, anchor, at, settings });
  };

  router.get(
    '/campaign/:campaignId',
    describe({ summary: 'Current ratchet rate from the campaign settings', response: campaignRateSchema }),
    validate({ params: idParams('campaignId') }),
    async (ctx: Context) => {
      const { campaignId } = ctx.state.params as { campaignId: string };
      const dbId = await resolveVisibleCampaignDbId(
        deps.pg,
        campaignId,
        await campaignVisibilityOf(deps, ctx.state as AuthState, true),
      );
      const campaign = dbId ? await loadRatchetCampaign(deps.pg, dbId) : null;
      if (!campaign) throw new NotFoundError(`Campaign ${campaignId} not found`);
      const settings = ratchetSettingsOf(campaign.params);
      const anchor = settings.anchor ?? Number(campaign.start_timestamp);
      const at = nowSeconds(deps);
      const nativeApr = (await loadOpportunityNativeApr(deps.pg, campaign.opportunity_id)) ?? 0;
      const result = await rate(campaign.opportunity_id, nativeApr, anchor, at, settings);
      ctx.body = {
        campaignId: campaign.id,
        opportunityId: campaign.opportunity_id,
        anchor,
        at,
        period: settings.period,
        curve: settings.curve,
        spread: settings.spread,
        tiers: settings.tiers,
        nativeApr,
        ...result,
      };
    },
  );

  router.get(
    '/opportunity/:id',
    describe({ summary: 'Ratchet rate of an opportunity at an explicit anchor', response: opportunityRateSchema }),
    validate({ params: idParams('id'), query: opportunityQuery }),
    async (ctx: Context) => {
      const { id } = ctx.state.params as { id: string };
      const opportunityId = resolveOpportunityId(id);
      const nativeApr = await loadOpportunityNativeApr(deps.pg, opportunityId);
      if (nativeApr === null) throw new NotFoundError(`Opportunity ${id} not found`);
      const q = ctx.state.query as { anchor: number; at?: number; period?: number };
      const at = q.at ?? nowSeconds(deps);
      const settings = { ...DEFAULT_RATCHET_SETTINGS, ...(q.period ? { period: q.period } : {}) };
      const result = await rate(opportunityId, nativeApr, q.anchor, at, settings);
      ctx.body = {
        opportunityId,
        anchor: q.anchor,
        at,
        period: settings.period,
        spread: settings.spread,
        tiers: settings.tiers,
        nativeApr,
        ...result,
      };
    },
  );
  return router;
}
