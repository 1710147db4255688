import type { CampaignDocument } from '../../../domain/documents/campaignDocument.js';
import { currentChainRecords } from '../../chainRecords.js';
import { findCreator, listCreators, type CreatorRecord } from '../../reads/creators.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { NotFoundError } from '../../errors.js';
import { searchCampaigns } from '../../visibility/campaignSearch.js';
import { type CampaignVisibility, campaignVisibilityOf } from '../../visibility/campaignVisibility.js';
import { serializeCampaign } from '../../reads/campaigns/serialize.js';
import { distributedRows } from '../../reads/reward-totals/distributed.js';
import { buildCreatorCampaignsQuery } from './query.js';
import { loadDashboard } from './repo.js';
import type { Handler } from '../../validate.js';
import type { creatorCampaignsQuery, creatorParams, dashboardQuery, listCreatorsQuery } from './schema.js';
import { readCampaignMetrics } from '../../reads/campaigns/family.js';
import type { campaignMetricsQuery, campaignRefParams } from '../../reads/campaigns/schema.js';
import { serializeCreator, serializeDashboard } from './serialize.js';

/**
 * The creator a path names, as the caller may know it: an address whose campaigns are all hidden from
 * the caller (`visible`: campaignVisibilityOf with showPrivate, as the dashboard counts) is a 404, as
 * one that created nothing (findCreator). Every /v4/creators/{creator} route starts here.
 */
export async function creatorOr404(
  deps: ApiDeps,
  visible: CampaignVisibility,
  creator: string,
): Promise<CreatorRecord> {
  const found = await findCreator(deps.pg, creator, visible);
  if (!found) throw new NotFoundError(`Creator ${creator} not found`);
  return found;
}

/**
 * GET /v4/creators: registered and implicit creators matching the filters; an implicit one only
 * with a campaign the caller may see. Tables creators, campaigns, campaign_privacy.
 */
export function listCreatorsHandler(deps: ApiDeps): Handler<{ query: typeof listCreatorsQuery }> {
  return async (ctx) => {
    const visible = await campaignVisibilityOf(deps, ctx.state, true);
    ctx.body = (await listCreators(deps.pg, ctx.state.query, visible)).map(serializeCreator);
  };
}

/** GET /v4/creators/{creator}: one creator by slug or address (404 when unknown or known only by hidden campaigns). */
export function getCreatorHandler(deps: ApiDeps): Handler<{ params: typeof creatorParams }> {
  return async (ctx) => {
    const visible = await campaignVisibilityOf(deps, ctx.state, true);
    ctx.body = serializeCreator(await creatorOr404(deps, visible, ctx.state.params.creator));
  };
}

/**
 * USD the live roots distributed for the creator's campaigns: the one definition of "distributed",
 * what GET /v4/rewards/total/distributed answers for `creatorAddresses` (its addresses), `test` and
 * `showPrivate=true` for the same caller (docs/api-behaviour.md#creators).
 */
async function creatorDistributed(
  deps: ApiDeps,
  creator: CreatorRecord,
  test: boolean,
  visible: Awaited<ReturnType<typeof campaignVisibilityOf>>,
): Promise<number> {
  if (!creator.addresses.length) return 0;
  const query = { creatorAddresses: creator.addresses, test, showPrivate: true };
  const { rows } = await distributedRows(deps, query, visible, 'type');
  return rows.reduce((sum, r) => sum + r.usd, 0);
}

/** GET /v4/creators/{creator}/dashboard: campaign counts, TVL and wallets (loadDashboard), USD distributed (creatorDistributed). */
export function dashboardHandler(
  deps: ApiDeps,
): Handler<{ params: typeof creatorParams; query: typeof dashboardQuery }> {
  return async (ctx) => {
    const visible = await campaignVisibilityOf(deps, ctx.state, true);
    const creator = await creatorOr404(deps, visible, ctx.state.params.creator);
    const { test } = ctx.state.query;
    const now = nowSeconds(deps);
    const [row, distributed] = await Promise.all([
      loadDashboard(deps.pg, { addresses: creator.addresses, now, test, visible }),
      creatorDistributed(deps, creator, test, visible),
    ]);
    ctx.body = serializeDashboard(row, distributed, creator);
  };
}

/**
 * GET /v4/creators/{creator}/campaigns: the creator's campaigns from the `<prefix>-campaigns` read
 * alias (any of its addresses), optionally by status, serialized as GET /v4/campaigns does.
 */
export function creatorCampaignsHandler(
  deps: ApiDeps,
): Handler<{ params: typeof creatorParams; query: typeof creatorCampaignsQuery }> {
  return async (ctx) => {
    const visible = await campaignVisibilityOf(deps, ctx.state, true);
    const creator = await creatorOr404(deps, visible, ctx.state.params.creator);
    const { status } = ctx.state.query;
    const now = nowSeconds(deps);
    const [result, chains] = await Promise.all([
      searchCampaigns<CampaignDocument>(deps, visible, buildCreatorCampaignsQuery(creator.addresses, status, now)),
      currentChainRecords(deps, now),
    ]);
    ctx.body = result.hits.hits.map((hit) => serializeCampaign(hit._source!, chains));
  };
}

/** GET /v4/creators/campaigns/{id}: the campaign's metrics as GET /v4/campaigns/{id}/metrics serves them. */
export function creatorCampaignMetricsHandler(
  deps: ApiDeps,
): Handler<{ params: typeof campaignRefParams; query: typeof campaignMetricsQuery }> {
  return async (ctx) => {
    ctx.body = await readCampaignMetrics(deps, ctx.state.params.id, ctx.state.query, ctx.state);
  };
}
