import type { PgClient } from '../../internal/pg.js';

export type OpportunityCampaign = {
  id: string;
  campaign_id: string;
  creator: string;
  /** The registered creator (creators table) whose addresses include `creator`, if any. */
  creator_id?: string | null;
  reward_token: string;
  reward_symbol: string | null;
  reward_type: 'TOKEN' | 'PRETGE' | 'POINT' | null;
  /** Internal id of the parent campaign of a sub-campaign, else null. */
  parent_campaign_id?: string | null;
  /** Whether the reward token is a test token (absent in sources built before the flag was loaded). */
  reward_is_test?: boolean | null;
  amount: string;
  campaign_type: number;
  start_timestamp: string;
  end_timestamp: string;
  params: Record<string, unknown>;
  created_at: Date;
};

export type OpportunityTarget = {
  id: string; name: string | null; address: string; symbol: string; decimals: number; icon: string;
  verified: boolean; is_native: boolean; is_test: boolean; type: 'TOKEN' | 'PRETGE' | 'POINT'; is_stablecoin: boolean;
  price: number | null; price_source: string | null; price_updated_at: string | null;
};

export type OpportunitySource = {
  id: string;
  chain_id: number;
  type: string;
  identifier: string;
  action: string;
  /** Curated by the back office. */
  tags: string[];
  program_slugs: string[];
  campaigns: OpportunityCampaign[];
  /** The identifier's token row when the identifier is a token on the opportunity's chain. */
  target: OpportunityTarget | null;
  /** Latest metrics job output (null before its first run). */
  metrics: { tvl: number; apr: number; daily_rewards: number; native_apr: number; max_daily_rewards: number | null; records: Record<string, unknown> } | null;
};

/**
 * Loads opportunities with their current campaigns (overrides applied) and target token in one
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
         WHERE c.opportunity_id = o.id), '[]') AS campaigns,
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
