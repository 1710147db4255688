import type { ApiDeps } from '../../deps.js';
import { NotFoundError, ValidationError, type FieldError } from '../../errors.js';
import type { AuthState } from '../../identity/types.js';
import {
  campaignVisibilityOf,
  resolveVisibleCampaignDbId,
  type CampaignVisibility,
} from '../../visibility/campaignVisibility.js';
import {
  loadAllCampaignSnapshots,
  loadCampaignEmission,
  loadCampaignFamily,
  loadCampaignSnapshots,
  loadWalletCounts,
} from '../campaignReads.js';
import { dailyAmountInToken, parseSeriesPaging, tvlInflowPerDollar, type SeriesPaging } from './metrics.js';
import { METRIC_SERIES, type MetricSeries } from './schema.js';

/**
 * The internal id of the path's campaign (PostgreSQL is the truth for families and history) with
 * what the caller may see of its family; 404 when absent or hidden.
 */
export async function resolveCampaignOr404(
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
 * The series of GET /v4/campaigns/{id}/metrics (and the creators' route to it): snapshot series from
 * campaign_snapshots (oldest first), wallet counts per verified reward tree, and tvlInflowPerDollar
 * (metrics.ts), each series paged alone; 400 naming a bad series' paging, 404 when hidden or absent.
 */
export async function readCampaignMetrics(deps: ApiDeps, id: string, query: Record<string, unknown>, state: AuthState) {
  const paging = {} as Record<MetricSeries, SeriesPaging>;
  const errors: FieldError[] = [];
  for (const s of METRIC_SERIES) {
    const p = parseSeriesPaging(query, s);
    if ('field' in p) errors.push(p);
    else paging[s] = p;
  }
  if (errors.length) throw new ValidationError(errors);
  const { dbId, visible } = await resolveCampaignOr404(deps, id, state);
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
  return {
    tvlRecords: tvl.map((r) => ({ timestamp: r.ts, total: r.tvl })),
    aprRecords: apr.map((r) => ({ timestamp: r.ts, apr: r.apr })),
    dailyRewardsRecords: daily.map((r) => ({ timestamp: r.ts, total: r.daily_rewards, totalInToken: inToken })),
    walletCount: wallets.map((w) => ({ timestamp: w.ts, walletCount: w.wallet_count })),
    tvlInflowPerDollar: tvlInflowPerDollar(all),
  };
}
