import type { PgClient, PgPool } from '../../../internal/pg.js';
import { publicCampaignSql } from '../../visibility/campaignVisibility.js';

/** One opportunity with what protocol listing needs of it. */
export type OpportunityFacts = {
  id: string;
  chainId: number;
  type: string;
  /** Its protocol as the back office set it (null: its type's). */
  mainProtocolId: string | null;
  isTestChain: boolean;
  status: 'LIVE' | 'PAST' | 'SOON';
  /** USD per day from opportunity_metrics (0 before the metrics job ran). */
  dailyRewards: number;
  liveCampaigns: number;
  /** Live campaigns that are not sub-campaigns of another. */
  liveRootCampaigns: number;
  tokenTypes: string[];
  tags: string[];
};

/**
 * Every opportunity with at least one public campaign (private ones count nowhere here), its status at `now` (LIVE: a campaign running;
 * SOON: none running, one upcoming; PAST otherwise), live campaign counts, daily rewards and the
 * types of its reward tokens. Tables opportunities, campaigns_current, campaign_privacy, opportunity_metrics, chains, tokens.
 */
export async function loadOpportunityFacts(
  db: Pick<PgPool | PgClient, 'query'>,
  now: number,
): Promise<OpportunityFacts[]> {
  const { rows } = await db.query<{
    id: string;
    chain_id: number;
    type: string;
    main_protocol_id: string | null;
    is_test: boolean;
    daily_rewards: number;
    live: number;
    live_root: number;
    soon: number;
    token_types: string[];
  }>(
    `SELECT o.id, o.chain_id, o.type, o.main_protocol_id, coalesce(ch.is_test, false) AS is_test, coalesce(m.daily_rewards, 0) AS daily_rewards,
       count(DISTINCT c.id) FILTER (WHERE c.start_timestamp <= $1 AND c.end_timestamp > $1)::int AS live,
       count(DISTINCT c.id) FILTER (WHERE c.start_timestamp <= $1 AND c.end_timestamp > $1 AND c.parent_campaign_id IS NULL)::int AS live_root,
       count(DISTINCT c.id) FILTER (WHERE c.start_timestamp > $1)::int AS soon,
       coalesce(array_agg(DISTINCT t.type) FILTER (WHERE t.type IS NOT NULL), '{}') AS token_types
     FROM opportunities o
     JOIN campaigns_current c ON c.opportunity_id = o.id AND ${publicCampaignSql('c')}
     LEFT JOIN opportunity_metrics m ON m.opportunity_id = o.id
     LEFT JOIN chains ch ON ch.id = o.chain_id
     LEFT JOIN tokens t ON t.chain_id = c.distribution_chain_id AND t.address = c.reward_token
     GROUP BY o.id, ch.is_test, m.daily_rewards
     ORDER BY o.id`,
    [now],
  );
  return rows.map((r) => ({
    id: r.id,
    chainId: r.chain_id,
    type: r.type,
    mainProtocolId: r.main_protocol_id,
    isTestChain: r.is_test,
    dailyRewards: Number(r.daily_rewards),
    status: r.live > 0 ? 'LIVE' : r.soon > 0 ? 'SOON' : 'PAST',
    liveCampaigns: r.live,
    liveRootCampaigns: r.live_root,
    tokenTypes: r.token_types,
    // Opportunities carry no tags yet (opportunity documents serve `tags: []`).
    tags: [],
  }));
}
