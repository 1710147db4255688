import Router from '@koa/router';
import type { Context } from 'koa';
import { computeRatchet, DEFAULT_RATCHET_SETTINGS, FREEZE_WINDOW, ratchetSettingsOf, recalculationTimes } from '../../../indexer/ratchet.js';
import { resolveCampaignDbId } from '../../../indexer/store/campaignReads.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { NotFoundError } from '../../errors.js';
import { fields, validate } from '../../validate.js';
import { resolveOpportunityId } from '../opportunities/readContext.js';
import { loadRatchetCampaign, meanTvl, opportunityExists } from './repo.js';

const idParams = (name: string) => ({ type: 'object', additionalProperties: false, required: [name], properties: { [name]: { type: 'string', minLength: 1, maxLength: 200 } } });
const opportunityQuery = {
  type: 'object', additionalProperties: false, required: ['anchor'],
  properties: { anchor: fields.unixSeconds, at: fields.unixSeconds, period: { type: 'integer', minimum: 3600, maximum: 365 * 86_400 } },
} as const;

/**
 * GET /v4/sofr-ratchet/campaign/{campaignId} and /opportunity/{id}: the rate ratchet of
 * indexer/ratchet.ts — frozen 14-day-mean TVL before the last recalculation (opportunity_snapshots),
 * last and next recalculation, live rate (config), baseline and boosted APYs, and the campaign's APR.
 */
export function ratchetRouter(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/sofr-ratchet' });
  const liveRate = () => deps.config.ratchet.liveRatePercent;
  const frozen = async (opportunityId: string, anchor: number, at: number, period: number) => {
    const { lastRecalculation } = recalculationTimes(anchor, at, period);
    return meanTvl(deps.pg, opportunityId, lastRecalculation - FREEZE_WINDOW, lastRecalculation);
  };

  router.get('/campaign/:campaignId', validate({ params: idParams('campaignId') }), async (ctx: Context) => {
    const { campaignId } = ctx.state.params as { campaignId: string };
    const dbId = await resolveCampaignDbId(deps.pg, campaignId);
    const campaign = dbId ? await loadRatchetCampaign(deps.pg, dbId) : null;
    if (!campaign) throw new NotFoundError(`Campaign ${campaignId} not found`);
    const settings = ratchetSettingsOf(campaign.params);
    const anchor = Number(campaign.start_timestamp);
    const at = nowSeconds(deps);
    const result = computeRatchet({ liveRate: liveRate(), frozenMeanTvl: await frozen(campaign.opportunity_id, anchor, at, settings.period), anchor, at, settings });
    ctx.body = { campaignId: campaign.id, opportunityId: campaign.opportunity_id, anchor, at, period: settings.period, curve: settings.curve, ...result };
  });

  router.get('/opportunity/:id', validate({ params: idParams('id'), query: opportunityQuery }), async (ctx: Context) => {
    const { id } = ctx.state.params as { id: string };
    const opportunityId = resolveOpportunityId(id);
    if (!(await opportunityExists(deps.pg, opportunityId))) throw new NotFoundError(`Opportunity ${id} not found`);
    const q = ctx.state.query as { anchor: number; at?: number; period?: number };
    const at = q.at ?? nowSeconds(deps);
    const settings = { ...DEFAULT_RATCHET_SETTINGS, ...(q.period ? { period: q.period } : {}) };
    const result = computeRatchet({ liveRate: liveRate(), frozenMeanTvl: await frozen(opportunityId, q.anchor, at, settings.period), anchor: q.anchor, at, settings });
    ctx.body = { opportunityId, anchor: q.anchor, at, period: settings.period, ...result };
  });
  return router;
}
