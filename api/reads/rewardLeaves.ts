import type { PgClient, PgPool } from '../../internal/pg.js';

/** One leaf of a stored reward tree: cumulative amount of a token earned by a recipient. */
export type RewardLeafRow = { recipient: string; token: string; amount: string };

/**
 * Every (recipient, token, amount) stored for a root (only verified trees have rows), without
 * breakdowns: what buildRewardTree needs to recompute proofs. Table rewards.
 */
export async function loadRewardLeaves(
  db: Pick<PgPool | PgClient, 'query'>,
  params: { chainId: number; root: string },
): Promise<RewardLeafRow[]> {
  const { rows } = await db.query<RewardLeafRow>(
    'SELECT recipient, token, amount::text AS amount FROM rewards WHERE chain_id = $1 AND root = $2',
    [params.chainId, params.root.toLowerCase()],
  );
  return rows;
}
