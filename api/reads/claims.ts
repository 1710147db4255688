import type { PgClient, PgPool } from '../../internal/pg.js';

export type ClaimedTotalsParams = { chainId: number; recipient?: string; token?: string };

/** What a recipient has claimed of a token in total (decimal string of base units). */
export type ClaimedTotal = { chainId: number; recipient: string; token: string; claimed: string };

/**
 * Claimed totals per (recipient, token) on a chain: the sum of the Claimed deltas, which equals
 * the Distributor's `claimed(user, token).amount` once indexed to the head.
 * @returns one row per pair with at least one claim, ordered by recipient then token.
 */
export async function claimedTotals(
  db: PgPool | PgClient,
  { chainId, recipient, token }: ClaimedTotalsParams,
): Promise<ClaimedTotal[]> {
  const { rows } = await db.query<{ recipient: string; token: string; claimed: string }>(
    `SELECT recipient, token, sum(amount)::text AS claimed FROM claims
     WHERE chain_id = $1 AND ($2::text IS NULL OR recipient = $2) AND ($3::text IS NULL OR token = $3)
     GROUP BY recipient, token ORDER BY recipient, token`,
    [chainId, recipient?.toLowerCase() ?? null, token?.toLowerCase() ?? null],
  );
  return rows.map((r) => ({ chainId, recipient: r.recipient, token: r.token, claimed: r.claimed }));
}
