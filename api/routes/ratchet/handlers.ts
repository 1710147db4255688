import {
  computeRatchet,
  DEFAULT_RATCHET_SETTINGS,
  FREEZE_WINDOW,
  isRatchetCampaign,
  ratchetSettingsOf,
  recalculationTimes,
  type RatchetSettings,
} from '../../../domain/ratchet.js';
import { campaignVisibilityOf, resolveVisibleCampaignDbId } from '../../visibility/campaignVisibility.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { NotFoundError } from '../../errors.js';
import { resolveOpportunityId } from '../../reads/opportunities/readContext.js';
import type { Handler } from '../../validate.js';
import type { campaignIdParams, opportunityIdParams, opportunityQuery } from './schema.js';
import { loadBenchmarkRates, loadOpportunityNativeApr, loadRatchetCampaign, meanTvl } from './repo.js';

/** The ratchet of one opportunity at `at`: stored benchmark rates and the TVL mean of the freeze window. */
async function rate(
  deps: ApiDeps,
  opportunityId: string,
  nativeApr: number,
  anchor: number,
  at: number,
  settings: RatchetSettings,
) {
  const { lastRecalculation } = recalculationTimes(anchor, at, settings.period);
  const [rates, frozenMeanTvl] = await Promise.all([
    loadBenchmarkRates(deps.pg, at),
    meanTvl(deps.pg, opportunityId, lastRecalculation - FREEZE_WINDOW, lastRecalculation),
  ]);
  return computeRatchet({ rates, frozenMeanTvl, nativeApr, anchor, at, settings });
}

/**
 * GET /v4/sofr-ratchet/campaign/{campaignId}: the current rate from the (visible) campaign's settings;
 * 404 for a campaign that is not a ratchet campaign (isRatchetCampaign), never default settings.
 */
export function campaignRateHandler(deps: ApiDeps): Handler<{ params: typeof campaignIdParams }> {
  return async (ctx) => {
    const { campaignId } = ctx.state.params;
    const dbId = await resolveVisibleCampaignDbId(
      deps.pg,
      campaignId,
      await campaignVisibilityOf(deps, ctx.state, true),
    );
    const campaign = dbId ? await loadRatchetCampaign(deps.pg, dbId) : null;
    if (!campaign) throw new NotFoundError(`Campaign ${campaignId} not found`);
    if (!isRatchetCampaign(campaign.params))
      throw new NotFoundError(
        `Campaign ${campaignId} is not a ratchet campaign: its distribution parameters do not name SOFR_SPREAD_RATCHET`,
      );
    const settings = ratchetSettingsOf(campaign.params);
    const anchor = settings.anchor ?? Number(campaign.start_timestamp);
    const at = nowSeconds(deps);
    const nativeApr = (await loadOpportunityNativeApr(deps.pg, campaign.opportunity_id)) ?? 0;
    const result = await rate(deps, campaign.opportunity_id, nativeApr, anchor, at, settings);
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
  };
}

/** GET /v4/sofr-ratchet/opportunity/{id}: the rate of an opportunity at an explicit anchor (default settings). */
export function opportunityRateHandler(
  deps: ApiDeps,
): Handler<{ params: typeof opportunityIdParams; query: typeof opportunityQuery }> {
  return async (ctx) => {
    const { id } = ctx.state.params;
    const opportunityId = resolveOpportunityId(id);
    const nativeApr = await loadOpportunityNativeApr(deps.pg, opportunityId);
    if (nativeApr === null) throw new NotFoundError(`Opportunity ${id} not found`);
    const q = ctx.state.query;
    const at = q.at ?? nowSeconds(deps);
    const settings = { ...DEFAULT_RATCHET_SETTINGS, ...(q.period ? { period: q.period } : {}) };
    const result = await rate(deps, opportunityId, nativeApr, q.anchor, at, settings);
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
  };
}
