import type { PgClient, PgPool } from '../../internal/pg.js';
import type { ClaimRow } from '../transform/claims.js';

/**
 * Batch upsert of Claimed rows keyed by (chain, tx hash, log index): replaying a range is
 * harmless, and a transaction re-mined in another block after a reorg moves its row.
 */
export async function upsertClaims(client: PgClient, rows: ClaimRow[]): Promise<void> {
  if (!rows.length) return;
  const col = <K extends keyof ClaimRow>(k: K) => rows.map((r) => r[k]);
  await client.query(
    `INSERT INTO claims (chain_id, recipient, token, amount, block_number, block_hash, tx_hash, log_index, timestamp)
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::numeric[], $5::bigint[], $6::text[], $7::text[], $8::int[], $9::bigint[])
     ON CONFLICT (chain_id, tx_hash, log_index) DO UPDATE SET recipient = EXCLUDED.recipient, token = EXCLUDED.token, amount = EXCLUDED.amount,
       block_number = EXCLUDED.block_number, block_hash = EXCLUDED.block_hash, timestamp = EXCLUDED.timestamp`,
    [col('chainId'), col('recipient'), col('token'), col('amount'), col('blockNumber'), col('blockHash'), col('txHash'), col('logIndex'), col('timestamp')],
  );
}

/** Records that claims of `chainId` were read from the chain up to its stored head just now. */
export async function markClaimsFetched(db: PgPool | PgClient, chainId: number): Promise<void> {
  await db.query('UPDATE chains SET last_claims_onchain_fetch_at = now(), updated_at = now() WHERE id = $1', [chainId]);
}

export type ClaimedTotalsParams = { chainId: number; recipient?: string; token?: string };

/** What a recipient has claimed of a token in total (decimal string of base units). */
export type ClaimedTotal = { chainId: number; recipient: string; token: string; claimed: string };

/**
 * Claimed totals per (recipient, token) on a chain: the sum of the Claimed deltas, which equals
 * the Distributor's `claimed(user, token).amount` once indexed to the head.
 * @returns one row per pair with at least one claim, ordered by recipient then token.
 */
export async function claimedTotals(db: PgPool | PgClient, { chainId, recipient, token }: ClaimedTotalsParams): Promise<ClaimedTotal[]> {
  const { rows } = await db.query<{ recipient: string; token: string; claimed: string }>(
    `SELECT recipient, token, sum(amount)::text AS claimed FROM claims
     WHERE chain_id = $1 AND ($2::text IS NULL OR recipient = $2) AND ($3::text IS NULL OR token = $3)
     GROUP BY recipient, token ORDER BY recipient, token`,
    [chainId, recipient?.toLowerCase() ?? null, token?.toLowerCase() ?? null],
  );
  return rows.map((r) => ({ chainId, recipient: r.recipient, token: r.token, claimed: r.claimed }));
}
