import type { PgClient, PgPool } from '../../../internal/pg.js';
import {
  visibilitySqlParams,
  visibleCampaignSql,
  type CampaignVisibility,
} from '../../visibility/campaignVisibility.js';

/** Raw dashboard figures of a set of creator addresses. */
export type DashboardRow = {
  past: number;
  live: number;
  future: number;
  total: number;
  total_tvl: number;
  total_wallets: number;
};

export type LoadDashboardParams = {
  addresses: string[];
  now: number;
  test: boolean;
  /** Private campaigns the caller may see count; others do not (README "Campaign visibility"). */
  visible: CampaignVisibility;
};

/**
 * Dashboard figures of the campaigns created from `addresses` that the caller may see (test chains only with `test`):
 * counts by status at `now`; total TVL (USD) of the live ones (campaign_metrics); wallets = distinct
 * recipients rewarded by those campaigns in any stored tree. (USD distributed: the distributed totals'
 * read, api/routes/creators/handlers.ts.)
 * Tables campaigns_current, campaign_privacy, chains, campaign_metrics, reward_breakdown_versions (any stored tree).
 */
export async function loadDashboard(
  db: Pick<PgPool | PgClient, 'query'>,
  p: LoadDashboardParams,
): Promise<DashboardRow> {
  const { rows } = await db.query<DashboardRow>(
    `WITH c AS (
       SELECT c.* FROM campaigns_current c LEFT JOIN chains ch ON ch.id = c.compute_chain_id
       WHERE lower(c.creator) = ANY($1::text[]) AND ($3::boolean OR NOT coalesce(ch.is_test, false)) AND ${visibleCampaignSql('c', 4, 5)}
     )
     SELECT
       count(*) FILTER (WHERE c.end_timestamp <= $2)::int AS past,
       count(*) FILTER (WHERE c.start_timestamp <= $2 AND c.end_timestamp > $2)::int AS live,
       count(*) FILTER (WHERE c.start_timestamp > $2)::int AS future,
       count(*)::int AS total,
       coalesce(sum(m.tvl_usd) FILTER (WHERE c.start_timestamp <= $2 AND c.end_timestamp > $2), 0)::float8 AS total_tvl,
       (SELECT count(DISTINCT b.recipient) FROM reward_breakdown_versions b JOIN c c2 ON b.chain_id = c2.distribution_chain_id AND b.campaign_id = c2.campaign_id)::int AS total_wallets
     FROM c
     LEFT JOIN campaign_metrics m ON m.campaign_db_id = c.id`,
    [p.addresses.map((a) => a.toLowerCase()), p.now, p.test, ...visibilitySqlParams(p.visible)],
  );
  return rows[0]!;
}
