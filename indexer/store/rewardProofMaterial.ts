import { chunkCount, encodeTopLayers } from '../../domain/rewardTreeLayout.js';
import { withTransaction, type PgClient, type PgPool } from '../../internal/pg.js';
import { chunkOf, type LayoutLeaf, type RewardTreeLayout } from '../transform/layoutRewardTree.js';

type Queryable = Pick<PgPool | PgClient, 'query'>;

/** Chunks per INSERT: ~3 MiB of hashes a statement. */
const CHUNKS_PER_INSERT = 100;

/**
 * Inside the caller's transaction: the proof material of a verified tree (domain/rewardTreeLayout.ts):
 * its sorted leaf hashes by chunk and its top on the reward_trees row, replacing any earlier copy.
 * A tree without a non-zero leaf (null layout) has none: its root is the zero hash, never claimable.
 * Tables reward_trees, reward_tree_chunks.
 */
export async function storeProofMaterial(
  client: PgClient,
  { chainId, root, layout }: { chainId: number; root: string; layout: RewardTreeLayout | null },
): Promise<void> {
  const key = root.toLowerCase();
  await client.query('DELETE FROM reward_tree_chunks WHERE chain_id = $1 AND root = $2', [chainId, key]);
  if (!layout) return;
  const chunks = chunkCount(layout.top.leafCount, layout.top.chunkLeaves);
  for (let from = 0; from < chunks; from += CHUNKS_PER_INSERT) {
    const ids = Array.from({ length: Math.min(CHUNKS_PER_INSERT, chunks - from) }, (_, i) => from + i);
    const bytes = ids.map((c) => Buffer.from(chunkOf(layout, c)));
    await client.query(
      `INSERT INTO reward_tree_chunks (chain_id, root, chunk, first_hash, hashes)
       SELECT $1, $2, * FROM unnest($3::int[], $4::bytea[], $5::bytea[])`,
      [chainId, key, ids, bytes.map((b) => b.subarray(0, 32)), bytes],
    );
  }
  await client.query('UPDATE reward_trees SET chunk_leaves = $3, top_layers = $4 WHERE chain_id = $1 AND root = $2', [
    chainId,
    key,
    layout.top.chunkLeaves,
    Buffer.from(encodeTopLayers(layout.top)),
  ]);
}

/** Roots of a chain that may be claimed against: the last two non-revoked (the live one is one of them). */
const CLAIMABLE = `SELECT r.root FROM roots r WHERE r.chain_id = $1 AND NOT r.revoked ORDER BY r.block_number DESC, r.log_index DESC LIMIT 2`;

/**
 * Drops the proof material of every tree of `chainId` that is not among its claimable roots (their
 * amounts stay). @returns the number of chunks dropped. Tables roots, reward_trees, reward_tree_chunks.
 */
export async function pruneProofMaterial(db: Queryable, chainId: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM reward_tree_chunks WHERE chain_id = $1 AND root NOT IN (${CLAIMABLE})`,
    [chainId],
  );
  await db.query(
    `UPDATE reward_trees SET chunk_leaves = NULL, top_layers = NULL
     WHERE chain_id = $1 AND top_layers IS NOT NULL AND root NOT IN (${CLAIMABLE})`,
    [chainId],
  );
  return rowCount ?? 0;
}

/**
 * Verified trees of claimable roots without proof material (stored before it existed, or a root that
 * became claimable again after a revocation), with their leaf count. Tables roots, reward_trees.
 */
export async function listTreesMissingProofMaterial(
  db: Queryable,
  chainId: number,
): Promise<{ root: string; leaves: number }[]> {
  const { rows } = await db.query<{ root: string; leaves: number | null }>(
    `SELECT t.root, t.leaves FROM reward_trees t
     WHERE t.chain_id = $1 AND t.status = 'verified' AND t.top_layers IS NULL AND coalesce(t.leaves, 0) > 0
       AND t.root IN (${CLAIMABLE})`,
    [chainId],
  );
  return rows.map((r) => ({ root: r.root, leaves: r.leaves ?? 0 }));
}

/** Leaves per FETCH of forEachStoredLeaf. */
const LEAVES_PER_FETCH = 10_000;

/**
 * Calls `fn` with the stored leaves of a verified root (what its proof material is rebuilt from),
 * 10,000 at a time through a cursor: memory does not grow with the tree. View rewards.
 */
export async function forEachStoredLeaf(
  pool: PgPool,
  chainId: number,
  root: string,
  fn: (leaves: LayoutLeaf[]) => void,
): Promise<void> {
  await withTransaction(pool, async (tx) => {
    await tx.query(
      'DECLARE stored_leaves NO SCROLL CURSOR FOR SELECT recipient, token, amount::text AS amount FROM rewards WHERE chain_id = $1 AND root = $2',
      [chainId, root.toLowerCase()],
    );
    for (;;) {
      const { rows } = await tx.query<LayoutLeaf>(`FETCH ${LEAVES_PER_FETCH} FROM stored_leaves`);
      if (!rows.length) return;
      fn(rows);
    }
  });
}
