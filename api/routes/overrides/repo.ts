import type { NamingUnderlying } from '../../../domain/documents/opportunityDocument.js';
import type { PgClient, PgPool } from '../../../internal/pg.js';

type Queryable = Pick<PgClient | PgPool, 'query'>;

/** One configuration of a campaign (its creation or one override), joined to its opportunity. */
export type CampaignVersionRow = {
  event_key: string;
  campaign_db_id: string;
  campaign_id: string;
  distribution_chain_id: number;
  compute_chain_id: number;
  creator: string;
  reward_token: string;
  amount: string;
  campaign_type: number;
  start_timestamp: string;
  end_timestamp: string;
  campaign_data: string;
  main_parameter: string | null;
  opportunity_id: string | null;
  params: Record<string, unknown>;
  effective_at: string;
  opp_chain_id: number | null;
  opp_type: string | null;
  opp_identifier: string | null;
  opp_action: string | null;
  target_symbol: string | null;
  /** What the opportunity's pool or market stands on (opportunity_underlying), for its name; null before it was read. */
  underlying: NamingUnderlying | null;
  chain_name: string | null;
};

/**
 * Every configuration of one campaign, oldest first: the creation (effective at its block time),
 * then each override by block and log index. Tables campaigns, campaign_overrides, opportunities,
 * opportunity_underlying, tokens, chains.
 */
export async function loadCampaignVersions(db: Queryable, campaignDbId: string): Promise<CampaignVersionRow[]> {
  const { rows } = await db.query<CampaignVersionRow>(
    `WITH versions AS (
       SELECT 0 AS ord, c.block_number, c.log_index, c.distribution_chain_id || '-' || c.tx_hash || '-' || c.log_index AS event_key,
         c.id AS campaign_db_id, c.campaign_id, c.distribution_chain_id, c.compute_chain_id, c.campaign_type, c.start_timestamp, c.end_timestamp,
         c.campaign_data, c.main_parameter, c.opportunity_id, c.params, extract(epoch FROM c.created_at)::bigint AS effective_at
       FROM campaigns c WHERE c.id = $1
       UNION ALL
       SELECT 1, o.block_number, o.log_index, o.chain_id || '-' || o.tx_hash || '-' || o.log_index,
         o.campaign_db_id, o.campaign_id, o.chain_id, o.compute_chain_id, o.campaign_type, o.start_timestamp, o.end_timestamp,
         o.campaign_data, o.main_parameter, o.opportunity_id, o.params, o.timestamp
       FROM campaign_overrides o WHERE o.campaign_db_id = $1)
     SELECT v.event_key, v.campaign_db_id, v.campaign_id, v.distribution_chain_id, v.compute_chain_id, c.creator, c.reward_token,
       c.amount::text AS amount, v.campaign_type, v.start_timestamp, v.end_timestamp, v.campaign_data, v.main_parameter, v.opportunity_id,
       v.params, v.effective_at, op.chain_id AS opp_chain_id, op.type AS opp_type, op.identifier AS opp_identifier, op.action AS opp_action,
       t.symbol AS target_symbol, ch.name AS chain_name,
       (SELECT json_build_object('fee', u.fee, 'lltv', u.lltv::text, 'tokens', (
            SELECT json_agg(json_build_object('address', x.address, 'symbol', ut.symbol) ORDER BY x.ord)
            FROM unnest(u.tokens) WITH ORDINALITY x(address, ord)
            LEFT JOIN tokens ut ON ut.chain_id = op.chain_id AND ut.address = x.address))
          FROM opportunity_underlying u WHERE u.opportunity_id = op.id) AS underlying
     FROM versions v
     JOIN campaigns c ON c.id = v.campaign_db_id
     LEFT JOIN opportunities op ON op.id = v.opportunity_id
     LEFT JOIN tokens t ON t.chain_id = op.chain_id AND t.address = lower(op.identifier)
     LEFT JOIN chains ch ON ch.id = op.chain_id
     ORDER BY v.ord, v.block_number, v.log_index`,
    [campaignDbId],
  );
  return rows;
}
