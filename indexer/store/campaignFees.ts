import type { PgPool } from '../../internal/pg.js';

type Queryable = Pick<PgPool, 'query'>;

/** A campaign whose fee is not read yet, with its creation transaction. */
export type PendingFeeCampaign = { id: string; txHash: string; logIndex: number; rewardToken: string };

/**
 * The oldest campaigns of a chain without a fee (campaigns_fee_pending_idx), at most `limit`, plus every
 * other campaign of their transactions (one receipt serves them all). Table campaigns.
 */
export async function pendingFeeCampaigns(
  db: Queryable,
  chainId: number,
  limit: number,
): Promise<PendingFeeCampaign[]> {
  const { rows } = await db.query<PendingFeeCampaign>(
    `WITH txs AS (
       SELECT DISTINCT tx_hash FROM (
         SELECT tx_hash FROM campaigns WHERE distribution_chain_id = $1 AND fee_amount IS NULL
         ORDER BY block_number, log_index LIMIT $2) p)
     SELECT c.id, c.tx_hash AS "txHash", c.log_index AS "logIndex", c.reward_token AS "rewardToken"
     FROM campaigns c JOIN txs USING (tx_hash)
     WHERE c.distribution_chain_id = $1 AND c.fee_amount IS NULL`,
    [chainId, limit],
  );
  return rows;
}

/** Stores fees (campaign id → base units) in one statement; a campaign rolled back meanwhile is simply not found. */
export async function storeCampaignFees(db: Queryable, fees: ReadonlyMap<string, bigint>): Promise<number> {
  if (!fees.size) return 0;
  const res = await db.query(
    `UPDATE campaigns c SET fee_amount = f.fee FROM unnest($1::text[], $2::numeric[]) AS f(id, fee)
     WHERE c.id = f.id AND c.fee_amount IS NULL`,
    [[...fees.keys()], [...fees.values()].map(String)],
  );
  return res.rowCount ?? 0;
}
