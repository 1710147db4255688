import {
  loadAllCampaignSnapshots,
  loadCampaignEmission,
  loadCampaignFamily,
  loadCampaignSnapshots,
  loadWalletCounts,
} from '../../reads/campaignReads.js';
import type { CampaignDocument } from '../../../domain/documents/campaignDocument.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { currentChainRecords } from '../../chainRecords.js';
import { NotFoundError, ValidationError, type FieldError } from '../../errors.js';
import { searchCampaigns } from '../../visibility/campaignSearch.js';
import {
  campaignVisibilityOf,
  PUBLIC_ONLY,
  resolveVisibleCampaignDbId,
  type CampaignVisibility,
} from '../../visibility/campaignVisibility.js';
import type { AuthState } from '../../identity/types.js';
import { dailyAmountInToken, parseSeriesPaging, tvlInflowPerDollar, type SeriesPaging } from './metrics.js';
import { splitList } from '../../reads/campaigns/params.js';
import { loadReallocations } from './reallocations.js';
import { serializeCampaign } from '../../reads/campaigns/serialize.js';
import type { Handler } from '../../validate.js';
import {
  METRIC_SERIES,
  type campaignRefParams,
  type campaignMetricsQuery,
  type linkedCampaignsQuery,
  type MetricSeries,
  type noQuery,
} from '../../reads/campaigns/schema.js';
import { buildLinkedList, buildStoringIdsTree } from './tree.js';

/**
 * The internal id of the path's campaign (PostgreSQL is the truth for families and history) with
 * what the caller may see of its family; 404 when absent or hidden.
 */
async function resolveOr404(
  deps: ApiDeps,
  id: string,
  state: AuthState,
): Promise<{ dbId: string; visible: CampaignVisibility }> {
  const visible = await campaignVisibilityOf(deps, state, true);
  const dbId = await resolveVisibleCampaignDbId(deps.pg, id, visible);
  if (!dbId) throw new NotFoundError(`No campaign ${id}`);
  return { dbId, visible };
}

/**
 * GET /v4/campaigns/{id}/metrics: snapshot series from campaign_snapshots (oldest first), wallet
 * counts per verified reward tree, and tvlInflowPerDollar (see metrics.ts). Each series pages alone.
 */
export function campaignMetricsHandler(
  deps: ApiDeps,
): Handler<{ params: typeof campaignRefParams; query: typeof campaignMetricsQuery }> {
  return async (ctx) => {
    const query = ctx.state.query;
    const paging = {} as Record<MetricSeries, SeriesPaging>;
    const errors: FieldError[] = [];
    for (const s of METRIC_SERIES) {
      const p = parseSeriesPaging(query, s);
      if ('field' in p) errors.push(p);
      else paging[s] = p;
    }
    if (errors.length) throw new ValidationError(errors);
    const { dbId, visible } = await resolveOr404(deps, ctx.state.params.id, ctx.state);
    const family = (await loadCampaignFamily(deps.pg, dbId, visible)).find((r) => r.depth === 0)!;
    const [tvl, apr, daily, wallets, all, emission] = await Promise.all([
      loadCampaignSnapshots(deps.pg, dbId, 'tvl', paging.tvl.page, paging.tvl.limit),
      loadCampaignSnapshots(deps.pg, dbId, 'apr', paging.apr.page, paging.apr.limit),
      loadCampaignSnapshots(deps.pg, dbId, 'daily_rewards', paging.dailyRewards.page, paging.dailyRewards.limit),
      loadWalletCounts(
        deps.pg,
        family.distribution_chain_id,
        family.campaign_id,
        dbId,
        paging.walletCount.page,
        paging.walletCount.limit,
      ),
      loadAllCampaignSnapshots(deps.pg, dbId),
      loadCampaignEmission(deps.pg, dbId),
    ]);
    const inToken = emission ? dailyAmountInToken(emission) : 0;
    ctx.body = {
      tvlRecords: tvl.map((r) => ({ timestamp: r.ts, total: r.tvl })),
      aprRecords: apr.map((r) => ({ timestamp: r.ts, apr: r.apr })),
      dailyRewardsRecords: daily.map((r) => ({ timestamp: r.ts, total: r.daily_rewards, totalInToken: inToken })),
      walletCount: wallets.map((w) => ({ timestamp: w.ts, walletCount: w.wallet_count })),
      tvlInflowPerDollar: tvlInflowPerDollar(all),
    };
  };
}

/** GET /v4/campaigns/{id}/storing-ids: the campaign's storing ids and its sub-campaigns', as a tree. */
export function storingIdsHandler(deps: ApiDeps): Handler<{ params: typeof campaignRefParams; query: typeof noQuery }> {
  return async (ctx) => {
    const { dbId, visible } = await resolveOr404(deps, ctx.state.params.id, ctx.state);
    ctx.body = buildStoringIdsTree((await loadCampaignFamily(deps.pg, dbId, visible)).filter((r) => r.depth >= 0));
  };
}

/** GET /v4/campaigns/{id}/linked: parents up to the root plus the sub-campaign subtree, flat (tree.ts LinkedNode). */
export function linkedCampaignsHandler(
  deps: ApiDeps,
): Handler<{ params: typeof campaignRefParams; query: typeof linkedCampaignsQuery }> {
  return async (ctx) => {
    const raw = ctx.state.query;
    const q = { ...raw, tokenTypes: splitList(raw.tokenTypes) };
    const { dbId, visible } = await resolveOr404(deps, ctx.state.params.id, ctx.state);
    const nodes = buildLinkedList(await loadCampaignFamily(deps.pg, dbId, visible), q);
    if (!raw.campaigns) return void (ctx.body = nodes);
    const records = await campaignRecords(
      deps,
      nodes.map((n) => n.campaignId),
    );
    ctx.body = nodes.map((n) => ({ ...n, campaign: records.get(n.campaignId) ?? null }));
  };
}

/**
 * The public Campaign records of `ids`, each with its reallocations as GET /v4/campaigns/{id} serves
 * it (one terms query on the campaigns alias, one PostgreSQL query); private ones are absent.
 */
async function campaignRecords(deps: ApiDeps, ids: string[]) {
  const [res, chains, reallocations] = await Promise.all([
    searchCampaigns<CampaignDocument>(deps, PUBLIC_ONLY, { size: ids.length, query: { terms: { id: ids } } }),
    currentChainRecords(deps, nowSeconds(deps)),
    loadReallocations(deps.pg, ids),
  ]);
  return new Map(
    res.hits.hits.map((h) => [
      h._source!.id,
      { ...serializeCampaign(h._source!, chains), reallocations: reallocations.get(h._source!.id) ?? [] },
    ]),
  );
}
