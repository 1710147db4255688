import type { PgPool } from '../../internal/pg.js';

/** Window of recent first publications that freshness is measured over. */
export const FRESHNESS_WINDOW_SECONDS = 24 * 3600;

export type Freshness = {
  windowSeconds: number;
  samples: number;
  sumSeconds: number;
  p50Seconds: number | null;
  p95Seconds: number | null;
};

/**
 * "Chain event → searchable document" over the campaigns first published in the last
 * `windowSeconds`: seconds from the NewCampaign block time to the first successful bulk write
 * (clamped at 0: a devnet block time can run ahead of the wall clock). Computed by PostgreSQL, so
 * every process reports the same figures. Tables: campaign_first_publications, campaigns.
 */
export async function loadFreshness(db: PgPool, windowSeconds = FRESHNESS_WINDOW_SECONDS): Promise<Freshness> {
  const { rows } = await db.query<{ samples: string; sum: number | null; p50: number | null; p95: number | null }>(
    `SELECT count(*) AS samples, sum(s) AS sum,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY s) AS p50, percentile_cont(0.95) WITHIN GROUP (ORDER BY s) AS p95
     FROM (SELECT greatest(0, extract(epoch FROM p.published_at - c.created_at))::float8 AS s
           FROM campaign_first_publications p JOIN campaigns c ON c.id = p.campaign_db_id
           WHERE p.published_at > now() - make_interval(secs => $1)) recent`,
    [windowSeconds],
  );
  const r = rows[0];
  return {
    windowSeconds,
    samples: Number(r?.samples ?? 0),
    sumSeconds: r?.sum ?? 0,
    p50Seconds: r?.p50 ?? null,
    p95Seconds: r?.p95 ?? null,
  };
}
