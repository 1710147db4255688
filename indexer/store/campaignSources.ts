import type { PgClient } from '../../internal/pg.js';

/** A campaign as it stands now (latest override applied) joined with its reward token. */
export type CampaignSource = {
  id: string;
  distribution_chain_id: number;
  compute_chain_id: number;
  campaign_id: string;
  creator: string;
  reward_token: string;
  amount: string;
  campaign_type: number;
  start_timestamp: string;
  end_timestamp: string;
  campaign_data: `0x${string}`;
  main_parameter: string | null;
  opportunity_id: string | null;
  params: Record<string, unknown>;
  has_overrides: boolean;
  created_at: Date;
  token_id: string | null;
  token_name: string | null;
  token_symbol: string | null;
  token_decimals: number | null;
  token_icon: string | null;
  token_verified: boolean | null;
  token_is_native: boolean | null;
  token_is_test: boolean | null;
  token_type: 'TOKEN' | 'PRETGE' | 'POINT' | null;
};

/** Loads the sources of the given campaign ids in one query; ids with no row are simply absent. */
export async function loadCampaignSources(client: PgClient, ids: string[]): Promise<CampaignSource[]> {
  if (!ids.length) return [];
  const { rows } = await client.query<CampaignSource>(
    `SELECT c.id, c.distribution_chain_id, c.compute_chain_id, c.campaign_id, c.creator, c.reward_token, c.amount::text AS amount,
       c.campaign_type, c.start_timestamp, c.end_timestamp, c.campaign_data, c.main_parameter, c.opportunity_id, c.params,
       c.has_overrides, c.created_at,
       t.id AS token_id, t.name AS token_name, t.symbol AS token_symbol, t.decimals AS token_decimals, t.icon AS token_icon,
       t.verified AS token_verified, t.is_native AS token_is_native, t.is_test AS token_is_test, t.type AS token_type
     FROM campaigns_current c LEFT JOIN tokens t ON t.chain_id = c.distribution_chain_id AND t.address = c.reward_token
     WHERE c.id = ANY($1::text[])`,
    [ids],
  );
  return rows;
}
