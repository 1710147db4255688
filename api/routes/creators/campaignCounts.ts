import type { PgPool } from '../../../internal/pg.js';

export type CreatorCampaignCounts = { live: number; soon: number; past: number };

/**
 * Per opportunity, the creator's public campaigns LIVE (start ≤ now < end), SOON (now < start) and
 * PAST (end ≤ now) at `now`: the `*CampaignsForCreator` figures of /v4/creators/{creator}/opportunities.
 * Tables campaigns_current, campaign_privacy.
 */
export async function loadCreatorCampaignCounts(
  pg: PgPool,
  opportunityIds: string[],
  addresses: string[],
  now: number,
): Promise<Map<string, CreatorCampaignCounts>> {
  if (!opportunityIds.length || !addresses.length) return new Map();
  const { rows } = await pg.query<{ opportunity_id: string; live: number; soon: number; past: number }>(
    `SELECT c.opportunity_id, count(*) FILTER (WHERE c.start_timestamp <= $3 AND c.end_timestamp > $3)::int AS live,
       count(*) FILTER (WHERE c.start_timestamp > $3)::int AS soon, count(*) FILTER (WHERE c.end_timestamp <= $3)::int AS past
     FROM campaigns_current c LEFT JOIN campaign_privacy pv ON pv.campaign_db_id = c.id
     WHERE c.opportunity_id = ANY($1::text[]) AND c.creator = ANY($2::text[]) AND NOT COALESCE(pv.is_private, false)
     GROUP BY c.opportunity_id`,
    [opportunityIds, addresses.map((a) => a.toLowerCase()), now],
  );
  return new Map(rows.map((r) => [r.opportunity_id, { live: r.live, soon: r.soon, past: r.past }]));
}
