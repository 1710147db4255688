import type { PgClient } from '../../internal/pg.js';
import type { CampaignSource } from '../documents/sources.js';

/**
 * Loads the sources of the given campaign ids in one query; ids with no row are simply absent.
 * `child_campaign_ids` names public children only: a private sub-campaign is not announced by its
 * parent's document (README "Campaign visibility").
 */
export async function loadCampaignSources(client: PgClient, ids: string[]): Promise<CampaignSource[]> {
  if (!ids.length) return [];
  const { rows } = await client.query<CampaignSource>(
    `SELECT c.id, c.distribution_chain_id, c.compute_chain_id, c.campaign_id, c.creator, c.reward_token, c.amount::text AS amount,
       c.campaign_type, c.start_timestamp, c.end_timestamp, c.campaign_data, c.main_parameter, c.opportunity_id, o.main_protocol_id AS opportunity_main_protocol_id, c.params,
       c.has_overrides, COALESCE(pv.is_private, false) AS is_private, c.parent_campaign_id, c.created_at,
       COALESCE((SELECT array_agg(k.id ORDER BY k.id) FROM campaigns k WHERE k.parent_campaign_id = c.id
         AND NOT EXISTS (SELECT 1 FROM campaign_privacy kp WHERE kp.campaign_db_id = k.id AND kp.is_private)), '{}') AS child_campaign_ids,
       CASE WHEN c.parent_campaign_id IS NULL THEN NULL ELSE (WITH RECURSIVE up(id, parent, depth) AS (
          SELECT p.id, p.parent_campaign_id, 1 FROM campaigns p WHERE p.id = c.parent_campaign_id
          UNION ALL SELECT p.id, p.parent_campaign_id, up.depth + 1 FROM campaigns p JOIN up ON p.id = up.parent WHERE up.depth < 32)
        SELECT id FROM up ORDER BY depth DESC LIMIT 1) END AS root_campaign_id,
       t.id AS token_id, t.name AS token_name, t.symbol AS token_symbol, t.decimals AS token_decimals, t.icon AS token_icon,
       t.verified AS token_verified, t.is_native AS token_is_native, t.is_test AS token_is_test, t.type AS token_type,
       t.display_symbol AS token_display_symbol, p.price AS token_price, p.price_source AS token_price_source, p.updated_at AS token_price_updated_at,
       m.apr AS metric_apr, m.daily_rewards_usd AS metric_daily_rewards, m.daily_amount::text AS metric_daily_amount, m.computed_at AS metric_computed_at,
       m.campaign_status AS metric_campaign_status, cr.id AS creator_id, cr.tags AS creator_tags
     FROM campaigns_current c LEFT JOIN tokens t ON t.chain_id = c.distribution_chain_id AND t.address = c.reward_token
     LEFT JOIN opportunities o ON o.id = c.opportunity_id
     LEFT JOIN token_prices p ON p.token_id = t.id
     LEFT JOIN campaign_metrics m ON m.campaign_db_id = c.id
     LEFT JOIN campaign_privacy pv ON pv.campaign_db_id = c.id
     LEFT JOIN LATERAL (SELECT k.id, k.tags FROM creators k WHERE c.creator = ANY(k.addresses) ORDER BY k.id LIMIT 1) cr ON true
     WHERE c.id = ANY($1::text[])`,
    [ids],
  );
  return rows;
}
