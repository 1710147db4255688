import type { PgClient } from '../../internal/pg.js';
import type { RewardTokenMinAmountRow } from '../transform/rewardTokens.js';

/**
 * Batch upsert of whitelist logs keyed by (chain, block, log index): replaying a range is harmless.
 * Table reward_token_min_amounts (chain-derived: rolled back with the chain, indexer/store/rollback.ts).
 */
export async function upsertRewardTokenMinAmounts(
  client: Pick<PgClient, 'query'>,
  rows: readonly RewardTokenMinAmountRow[],
): Promise<void> {
  if (!rows.length) return;
  const col = <K extends keyof RewardTokenMinAmountRow>(k: K) => rows.map((r) => r[k]);
  await client.query(
    `INSERT INTO reward_token_min_amounts (chain_id, token, amount, block_number, block_hash, tx_hash, log_index)
     SELECT * FROM unnest($1::int[], $2::text[], $3::numeric[], $4::bigint[], $5::text[], $6::text[], $7::int[])
     ON CONFLICT (chain_id, block_number, log_index) DO UPDATE SET token = EXCLUDED.token, amount = EXCLUDED.amount,
       block_hash = EXCLUDED.block_hash, tx_hash = EXCLUDED.tx_hash`,
    [col('chainId'), col('token'), col('amount'), col('blockNumber'), col('blockHash'), col('txHash'), col('logIndex')],
  );
}
