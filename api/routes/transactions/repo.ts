import type { PgPool } from '../../../internal/pg.js';
import {
  type CampaignVisibility,
  visibilitySqlParams,
  visibleCampaignSql,
} from '../../visibility/campaignVisibility.js';

/** A campaign as it stands now (overrides applied) with its creation event's position. */
export type TxCampaignRow = {
  id: string;
  campaign_id: string;
  distribution_chain_id: number;
  compute_chain_id: number;
  creator: string;
  reward_token: string;
  amount: string;
  campaign_type: number;
  start_timestamp: string;
  end_timestamp: string;
  main_parameter: string | null;
  params: Record<string, unknown>;
  campaign_data: string;
  block_number: string;
  tx_hash: string;
  log_index: number;
  /** Stored configurations (GET /v4/config/hash/{hash}) of the campaign: its data's hash or an association. */
  configs: unknown[];
};

const SELECT = `SELECT c.id, c.campaign_id, c.distribution_chain_id, c.compute_chain_id, c.creator, c.reward_token,
    c.amount::text AS amount, c.campaign_type, c.start_timestamp::text AS start_timestamp, c.end_timestamp::text AS end_timestamp,
    c.main_parameter, c.params, c.campaign_data, c.block_number::text AS block_number, c.tx_hash, c.log_index,
    ARRAY(SELECT cfg.config FROM campaign_configs cfg
      WHERE (length(c.campaign_data) = 66 AND cfg.hash = lower(c.campaign_data))
         OR EXISTS (SELECT 1 FROM campaign_config_associations a
                    WHERE a.config_hash = cfg.hash AND a.distribution_chain_id = c.distribution_chain_id AND a.campaign_id = c.campaign_id)
      ORDER BY cfg.hash) AS configs
  FROM campaigns_current c`;

/**
 * The campaigns the transaction `txHash` created on `chainId` that `visible` allows, in the order of
 * their NewCampaign events. Tables campaigns (index campaigns_chain_tx_idx), campaign_overrides,
 * campaign_privacy, campaign_configs, campaign_config_associations.
 */
export async function campaignsOfTransaction(
  pg: PgPool,
  chainId: number,
  txHash: string,
  visible: CampaignVisibility,
): Promise<TxCampaignRow[]> {
  const { rows } = await pg.query<TxCampaignRow>(
    `${SELECT} WHERE c.id IN (SELECT id FROM campaigns WHERE distribution_chain_id = $1 AND tx_hash = $2)
       AND ${visibleCampaignSql('c', 3, 4)}
     ORDER BY c.log_index`,
    [chainId, txHash.toLowerCase(), ...visibilitySqlParams(visible)],
  );
  return rows;
}

/**
 * The creation event (transaction hash, block) of the campaign `campaignId` on `chainId` when `visible`
 * allows it, else null (absent and hidden alike). Table campaigns, campaign_privacy.
 */
export async function creationOfCampaign(
  pg: PgPool,
  chainId: number,
  campaignId: string,
  visible: CampaignVisibility,
): Promise<{ tx_hash: string; block_number: string } | null> {
  const { rows } = await pg.query<{ tx_hash: string; block_number: string }>(
    `SELECT c.tx_hash, c.block_number::text AS block_number FROM campaigns c
     WHERE c.distribution_chain_id = $1 AND c.campaign_id = lower($2) AND ${visibleCampaignSql('c', 3, 4)}`,
    [chainId, campaignId, ...visibilitySqlParams(visible)],
  );
  return rows[0] ?? null;
}
