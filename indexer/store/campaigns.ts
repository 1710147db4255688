import type { PgClient } from '../../internal/pg.js';
import type {
  CampaignOverrideRow,
  CampaignReallocationRow,
  CampaignRow,
  OpportunityRow,
} from '../transform/campaigns.js';

/** Column arrays for `unnest`: one array per key, in the order given. */
function columns<T>(rows: T[], keys: (keyof T)[]): unknown[][] {
  return keys.map((k) =>
    rows.map((r) => {
      const v = r[k];
      return v !== null && typeof v === 'object' && !(v instanceof Date) && !Array.isArray(v) ? JSON.stringify(v) : v;
    }),
  );
}

/**
 * Batch upsert of campaigns keyed by (distribution chain, campaignId): replaying a range rewrites
 * the same rows and never duplicates them.
 * @returns the internal ids written.
 */
export async function upsertCampaigns(client: PgClient, rows: CampaignRow[]): Promise<string[]> {
  if (!rows.length) return [];
  await client.query(
    `INSERT INTO campaigns (id, distribution_chain_id, compute_chain_id, campaign_id, creator, reward_token, amount,
       campaign_type, start_timestamp, end_timestamp, campaign_data, block_number, block_hash, tx_hash, log_index, created_at,
       main_parameter, opportunity_id, params, parent_campaign_id)
     SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::text[], $5::text[], $6::text[], $7::numeric[],
       $8::int[], $9::bigint[], $10::bigint[], $11::text[], $12::bigint[], $13::text[], $14::text[], $15::int[], $16::timestamptz[],
       $17::text[], $18::text[], $19::jsonb[], $20::text[])
     ON CONFLICT (distribution_chain_id, campaign_id) DO UPDATE SET
       compute_chain_id = EXCLUDED.compute_chain_id, creator = EXCLUDED.creator, reward_token = EXCLUDED.reward_token,
       amount = EXCLUDED.amount, campaign_type = EXCLUDED.campaign_type, start_timestamp = EXCLUDED.start_timestamp,
       end_timestamp = EXCLUDED.end_timestamp, campaign_data = EXCLUDED.campaign_data, block_number = EXCLUDED.block_number,
       block_hash = EXCLUDED.block_hash, tx_hash = EXCLUDED.tx_hash, log_index = EXCLUDED.log_index, created_at = EXCLUDED.created_at,
       main_parameter = EXCLUDED.main_parameter, opportunity_id = EXCLUDED.opportunity_id, params = EXCLUDED.params,
       parent_campaign_id = EXCLUDED.parent_campaign_id`,
    columns(rows, [
      'id',
      'distributionChainId',
      'computeChainId',
      'campaignId',
      'creator',
      'rewardToken',
      'amount',
      'campaignType',
      'startTimestamp',
      'endTimestamp',
      'campaignData',
      'blockNumber',
      'blockHash',
      'txHash',
      'logIndex',
      'createdAt',
      'mainParameter',
      'opportunityId',
      'params',
      'parentCampaignId',
    ]),
  );
  return rows.map((r) => r.id);
}

/** Batch insert of override logs (idempotent by log position). */
export async function upsertOverrides(client: PgClient, rows: CampaignOverrideRow[]): Promise<void> {
  if (!rows.length) return;
  await client.query(
    `INSERT INTO campaign_overrides (chain_id, campaign_db_id, campaign_id, campaign_type, compute_chain_id, start_timestamp, end_timestamp,
       campaign_data, main_parameter, opportunity_id, params, block_number, block_hash, tx_hash, log_index, timestamp)
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::int[], $6::bigint[], $7::bigint[], $8::text[], $9::text[],
       $10::text[], $11::jsonb[], $12::bigint[], $13::text[], $14::text[], $15::int[], $16::bigint[])
     ON CONFLICT (chain_id, tx_hash, log_index) DO NOTHING`,
    columns(rows, [
      'chainId',
      'campaignDbId',
      'campaignId',
      'campaignType',
      'computeChainId',
      'startTimestamp',
      'endTimestamp',
      'campaignData',
      'mainParameter',
      'opportunityId',
      'params',
      'blockNumber',
      'blockHash',
      'txHash',
      'logIndex',
      'timestamp',
    ]),
  );
}

/** Batch insert of reallocation logs (idempotent by log position). */
export async function upsertReallocations(client: PgClient, rows: CampaignReallocationRow[]): Promise<void> {
  if (!rows.length) return;
  await client.query(
    `INSERT INTO campaign_reallocations (chain_id, campaign_db_id, campaign_id, from_addresses, to_address, block_number, block_hash, tx_hash, log_index, timestamp)
     SELECT r.chain_id, r.campaign_db_id, r.campaign_id, ARRAY(SELECT jsonb_array_elements_text(r.from_json)), r.to_address,
       r.block_number, r.block_hash, r.tx_hash, r.log_index, r.timestamp
     FROM unnest($1::int[], $2::text[], $3::text[], $4::jsonb[], $5::text[], $6::bigint[], $7::text[], $8::text[], $9::int[], $10::bigint[])
       AS r(chain_id, campaign_db_id, campaign_id, from_json, to_address, block_number, block_hash, tx_hash, log_index, timestamp)
     ON CONFLICT (chain_id, tx_hash, log_index) DO NOTHING`,
    [
      ...columns(rows, ['chainId', 'campaignDbId', 'campaignId']),
      rows.map((r) => JSON.stringify(r.from)),
      ...columns(rows, ['to', 'blockNumber', 'blockHash', 'txHash', 'logIndex', 'timestamp']),
    ],
  );
}

/** Inserts opportunities not seen before (their key never changes). */
export async function upsertOpportunities(client: PgClient, rows: OpportunityRow[]): Promise<void> {
  if (!rows.length) return;
  await client.query(
    `INSERT INTO opportunities (id, chain_id, type, identifier, action)
     SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[])
     ON CONFLICT (id) DO NOTHING`,
    columns(rows, ['id', 'chainId', 'type', 'identifier', 'action']),
  );
}

/** Current opportunity of each given campaign (before an override moves it elsewhere). */
export async function currentOpportunityIds(client: PgClient, campaignIds: string[]): Promise<string[]> {
  if (!campaignIds.length) return [];
  const { rows } = await client.query<{ opportunity_id: string | null }>(
    'SELECT DISTINCT opportunity_id FROM campaigns_current WHERE id = ANY($1::text[])',
    [campaignIds],
  );
  return rows.map((r) => r.opportunity_id).filter((id): id is string => id !== null);
}
