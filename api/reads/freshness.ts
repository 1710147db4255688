import type { PgPool } from '../../internal/pg.js';

/** Window of recent first publications that freshness is measured over. */
export const FRESHNESS_WINDOW_SECONDS = 24 * 3600;

export type Freshness = {
  windowSeconds: number;
  samples: number;
  sumSeconds: number;
  p50Seconds: number | null;
  p95Seconds: number | null;
  /** Samples whose block time was ahead of their publication (a devnet's clock): timed from indexing instead. */
  clockAheadSamples: number;
};

/**
 * "Chain event → searchable document" over the campaigns first published in the last
 * `windowSeconds`: seconds from the NewCampaign block time to the first successful bulk write. A
 * block time ahead of that write (a devnet's clock runs ahead of the wall clock) would make the
 * figure 0 and meaningless: such a sample is timed from when the indexer stored the campaign
 * (`campaigns.indexed_at`, the pipeline's own part) and counted in `clockAheadSamples`, so the
 * reader knows (#44). Computed by PostgreSQL, so every process reports the same figures.
 * Tables: campaign_first_publications, campaigns.
 */
export async function loadFreshness(db: PgPool, windowSeconds = FRESHNESS_WINDOW_SECONDS): Promise<Freshness> {
  const { rows } = await db.query<{
    samples: string;
    sum: number | null;
    p50: number | null;
    p95: number | null;
    ahead: string;
  }>(
    `SELECT count(*) AS samples, sum(s) AS sum, count(*) FILTER (WHERE ahead) AS ahead,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY s) AS p50, percentile_cont(0.95) WITHIN GROUP (ORDER BY s) AS p95
     FROM (SELECT c.created_at > p.published_at AS ahead,
             greatest(0, extract(epoch FROM p.published_at
               - CASE WHEN c.created_at > p.published_at THEN c.indexed_at ELSE c.created_at END))::float8 AS s
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
    clockAheadSamples: Number(r?.ahead ?? 0),
  };
}
