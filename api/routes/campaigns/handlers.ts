import { loadReallocations } from './reallocations.js';
import { findCampaignIdsByTx } from '../../reads/campaignReads.js';
import type { ApiDeps } from '../../deps.js';
import { campaignVisibilityOf } from '../../visibility/campaignVisibility.js';
import { privateVisibility } from '../../reads/campaign-access/visibility.js';
import { getCampaign, listCampaigns } from '../../reads/campaigns/list.js';
import type { Handler } from '../../validate.js';
import type {
  campaignRefParams,
  campaignTxQuery,
  getCampaignQuery,
  listCampaignsQuery,
} from '../../reads/campaigns/schema.js';

/** GET /v4/campaigns: listCampaigns over the validated query. */
export function listCampaignsHandler(deps: ApiDeps): Handler<{ query: typeof listCampaignsQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    if (q.showPrivate) ctx.state.private = true;
    ctx.body = await listCampaigns(deps, q, await privateVisibility(deps, ctx.state, q.showPrivate));
  };
}

/** GET /v4/campaigns/{id}: getCampaign with its reallocations (loadReallocations); 404 when absent. */
export function getCampaignHandler(
  deps: ApiDeps,
): Handler<{ params: typeof campaignRefParams; query: typeof getCampaignQuery }> {
  return async (ctx) => {
    const { id } = ctx.state.params;
    const { showPrivate } = ctx.state.query;
    if (showPrivate) ctx.state.private = true;
    const campaign = await getCampaign(deps, id, await privateVisibility(deps, ctx.state, showPrivate));
    ctx.body = { ...campaign, reallocations: (await loadReallocations(deps.pg, [campaign.id])).get(campaign.id) ?? [] };
  };
}

/** GET /v4/campaigns/tx: internal ids of the campaigns a creation transaction created (`[]` if none). */
export function campaignsByTxHandler(deps: ApiDeps): Handler<{ query: typeof campaignTxQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    ctx.body = await findCampaignIdsByTx(deps.pg, q.chainId, q.hash, await campaignVisibilityOf(deps, ctx.state, true));
  };
}
