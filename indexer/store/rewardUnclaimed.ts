import type { PgClient } from '../../internal/pg.js';
import { dropTreeAnchors } from './rewardAnchors.js';

/** Namespace of the lock the claims trigger takes too (sql/migrations/2026_12_03_06_reward_campaign_unclaimed.sql). */
const UNCLAIMED_LOCK_NAMESPACE = 0x756e63; // "unc"

/** How many stored trees per chain keep their unclaimed rows: the live root is one of the last two roots, plus one revoked. */
export const UNCLAIMED_TREES_KEPT = 3;

/** A breakdown valid in tree `seq` (and its leaf), `alias` being its version row. */
const validAt = (alias: string, seq: string) =>
  `${alias}.since_seq <= ${seq} AND (${alias}.until_seq IS NULL OR ${alias}.until_seq > ${seq})`;

/**
 * Pure: whether a tree is cheaper summed whole than moved from the previous tree's rows: moving reads
 * the changed leaves' breakdowns twice (in both trees), summing reads every breakdown once, so it
 * pays once half the previous tree's leaves (reward_trees.leaves; unknown: move) changed.
 */
export function sumsWhole({ leaves, changed }: { leaves: number | null; changed: number }): boolean {
  return leaves !== null && 2 * changed >= leaves;
}

/**
 * Inside storeStagedTree's transaction, once the tree `seq` of `chainId` has its versions and
 * `changed_leaves` lists the (recipient, token) whose leaf it changed: the tree's unclaimed amount per
 * campaign (reward_campaign_unclaimed). When the previous stored tree of the chain has its rows, they
 * move by what the changed leaves' breakdowns hold unclaimed now minus then (claimed totals as of
 * now), so it costs what the changed leaves cost; otherwise, or when most leaves changed (sumsWhole),
 * the tree is summed whole. The trees beyond the latest UNCLAIMED_TREES_KEPT lose their rows (a
 * read of one sums at read time), and their campaign anchors (rewardAnchors.ts).
 * Serialized with the claims trigger per chain: claimed totals read here are the ones it updates.
 * Tables reward_campaign_unclaimed, reward_unclaimed_trees (read: reward_breakdown_versions,
 * reward_leaf_versions, claimed_totals, reward_trees).
 */
export async function storeTreeUnclaimed(
  client: PgClient,
  chainId: number,
  seq: string,
  changed = 'changed_leaves',
): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1, $2)', [UNCLAIMED_LOCK_NAMESPACE, chainId]);
  // The previous tree's rows serve only if no tree was stored between it and this one without them.
  const { rows } = await client.query<{ seq: string; leaves: number | null; changed: number }>(
    `SELECT m.seq::text AS seq, (SELECT t.leaves FROM reward_trees t WHERE t.chain_id = $1 AND t.seq = m.seq) AS leaves,
       (SELECT count(*) FROM ${changed})::int AS changed
     FROM (SELECT max(seq) AS seq FROM reward_unclaimed_trees WHERE chain_id = $1 AND seq < $2) m
     WHERE m.seq IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM reward_trees t WHERE t.chain_id = $1 AND t.seq > m.seq AND t.seq < $2)`,
    [chainId, seq],
  );
  const previous = rows[0] && !sumsWhole(rows[0]) ? rows[0].seq : undefined;
  if (previous !== undefined) {
    // Each tree's side is its own join with its seq a constant, so the planner can look the changed
    // leaves up by key when they are few, or hash them against the chain's versions when most changed.
    const side = (seq: string, sign: string) =>
      `SELECT b.campaign_id, ${sign}reward_unclaimed_share(b.amount, l.amount, k.amount)
       FROM ${changed} c
       JOIN reward_leaf_versions l ON l.chain_id = $1 AND l.recipient = c.recipient AND l.token = c.token AND ${validAt('l', seq)}
       JOIN reward_breakdown_versions b ON b.chain_id = $1 AND b.recipient = c.recipient AND b.token = c.token AND ${validAt('b', seq)}
       LEFT JOIN claimed_totals k ON k.chain_id = $1 AND k.recipient = c.recipient AND k.token = c.token`;
    await client.query(
      `INSERT INTO reward_campaign_unclaimed (chain_id, seq, campaign_id, amount)
       SELECT $1, $2, campaign_id, sum(amount) FROM (
         SELECT campaign_id, amount FROM reward_campaign_unclaimed WHERE chain_id = $1 AND seq = $3
         UNION ALL ${side('$3::bigint', '-')}
         UNION ALL ${side('$2::bigint', '')}
       ) d GROUP BY campaign_id HAVING sum(amount) <> 0`,
      [chainId, seq, previous],
    );
  } else {
    await client.query(
      `INSERT INTO reward_campaign_unclaimed (chain_id, seq, campaign_id, amount)
       SELECT $1, $2, b.campaign_id, sum(reward_unclaimed_share(b.amount, l.amount, k.amount))
       FROM reward_breakdown_versions b
       JOIN reward_leaf_versions l ON l.chain_id = $1 AND l.recipient = b.recipient AND l.token = b.token AND ${validAt('l', '$2')}
       LEFT JOIN claimed_totals k ON k.chain_id = $1 AND k.recipient = b.recipient AND k.token = b.token
       WHERE b.chain_id = $1 AND ${validAt('b', '$2')}
       GROUP BY b.campaign_id HAVING sum(reward_unclaimed_share(b.amount, l.amount, k.amount)) <> 0`,
      [chainId, seq],
    );
  }
  await client.query('INSERT INTO reward_unclaimed_trees (chain_id, seq) VALUES ($1, $2)', [chainId, seq]);
  const dropped = await client.query<{ seq: string }>(
    `DELETE FROM reward_unclaimed_trees WHERE chain_id = $1 AND seq IN (
       SELECT seq FROM reward_unclaimed_trees WHERE chain_id = $1 ORDER BY seq DESC OFFSET $2) RETURNING seq::text AS seq`,
    [chainId, UNCLAIMED_TREES_KEPT],
  );
  if (dropped.rows.length) {
    const seqs = dropped.rows.map((r) => r.seq);
    await client.query('DELETE FROM reward_campaign_unclaimed WHERE chain_id = $1 AND seq = ANY($2::bigint[])', [
      chainId,
      seqs,
    ]);
    await dropTreeAnchors(client, chainId, seqs);
  }
}
