import type { PgClient } from '../../internal/pg.js';
import type { OpportunitySource } from '../../domain/documents/sources.js';

/**
 * Loads opportunities with their current public campaigns (overrides applied; private ones are
 * left out of this public projection: README "Campaign visibility") and target token in one
 * query; ids with no row are absent.
 */
export async function loadOpportunitySources(client: PgClient, ids: string[]): Promise<OpportunitySource[]> {
  if (!ids.length) return [];
  const { rows } = await client.query<OpportunitySource>(
    `SELECT o.id, o.chain_id, o.type, o.identifier, o.action, o.tags, o.program_slugs,
       COALESCE((SELECT json_agg(json_build_object(
           'id', c.id, 'campaign_id', c.campaign_id, 'creator', c.creator, 'reward_token', c.reward_token,
           'creator_id', (SELECT k.id FROM creators k WHERE c.creator = ANY(k.addresses) ORDER BY k.id LIMIT 1),
           'reward_symbol', rt.symbol, 'reward_type', rt.type, 'reward_is_test', rt.is_test, 'amount', c.amount::text, 'campaign_type', c.campaign_type,
           'start_timestamp', c.start_timestamp::text, 'end_timestamp', c.end_timestamp::text, 'params', c.params, 'created_at', c.created_at,
           'parent_campaign_id', c.parent_campaign_id)
           ORDER BY c.created_at, c.id)
         FROM campaigns_current c
         LEFT JOIN tokens rt ON rt.chain_id = c.distribution_chain_id AND rt.address = c.reward_token
         WHERE c.opportunity_id = o.id
           AND NOT EXISTS (SELECT 1 FROM campaign_privacy pv WHERE pv.campaign_db_id = c.id AND pv.is_private)), '[]') AS campaigns,
       (SELECT row_to_json(t) FROM (SELECT tk.id, tk.name, tk.address, tk.symbol, tk.decimals, tk.icon, tk.verified, tk.is_native, tk.is_test, tk.type,
            tk.is_stablecoin, p.price, p.price_source, p.updated_at AS price_updated_at
          FROM tokens tk LEFT JOIN token_prices p ON p.token_id = tk.id WHERE tk.chain_id = o.chain_id AND tk.address = o.identifier) t) AS target,
       (SELECT row_to_json(m) FROM (SELECT tvl, apr, daily_rewards, native_apr, max_daily_rewards, records
          FROM opportunity_metrics WHERE opportunity_id = o.id) m) AS metrics
     FROM opportunities o WHERE o.id = ANY($1::text[])`,
    [ids],
  );
  return rows.map((r) => ({ ...r, campaigns: r.campaigns.map((c) => ({ ...c, created_at: new Date(c.created_at) })) }));
}
