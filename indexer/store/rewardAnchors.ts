import type { Queryable } from '../../internal/pg.js';

/** Rows per bucket of a campaign's anchors: a page of GET /v4/rewards?campaignId walks at most this many plus itself. */
export const ANCHOR_BUCKET = 1000;

/**
 * The kept trees of `chainId` (reward_unclaimed_trees: the live root's is one) whose campaign anchors are
 * missing or were cut with another bucket size, newest first. Tables reward_unclaimed_trees, reward_anchored_trees.
 */
export async function listTreesToAnchor(db: Queryable, chainId: number, bucket = ANCHOR_BUCKET): Promise<string[]> {
  const { rows } = await db.query<{ seq: string }>(
    `SELECT u.seq::text AS seq FROM reward_unclaimed_trees u
     LEFT JOIN reward_anchored_trees m ON m.chain_id = u.chain_id AND m.seq = u.seq
     WHERE u.chain_id = $1 AND (m.seq IS NULL OR m.bucket <> $2) ORDER BY u.seq DESC`,
    [chainId, bucket],
  );
  return rows.map((r) => r.seq);
}

/**
 * Cuts tree `seq`'s breakdowns into the anchors of each campaign (sql/migrations/2026_12_05_02_reward_campaign_anchors.sql,
 * reward_campaign_anchors_build: one sort of the tree's breakdowns, a few seconds at a million leaves): one
 * statement, its own transaction unless the caller's, holding the claims trigger's lock to the end;
 * nothing when the tree is no longer kept.
 * @returns the anchors written, or null when the tree was not kept.
 */
export async function anchorTree(
  db: Queryable,
  chainId: number,
  seq: string,
  bucket = ANCHOR_BUCKET,
): Promise<number | null> {
  const { rows } = await db.query<{ built: number | null }>(
    'SELECT reward_campaign_anchors_build($1, $2, $3) AS built',
    [chainId, seq, bucket],
  );
  return rows[0]?.built ?? null;
}

/** Inside the caller's transaction (under the claims lock): drops the anchors of trees `seqs` of `chainId`. */
export async function dropTreeAnchors(db: Queryable, chainId: number, seqs: readonly string[]): Promise<void> {
  for (const table of ['reward_campaign_anchors', 'reward_anchored_trees'])
    await db.query(`DELETE FROM ${table} WHERE chain_id = $1 AND seq = ANY($2::bigint[])`, [chainId, seqs]);
}
