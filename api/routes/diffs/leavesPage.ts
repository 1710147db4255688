import type { Queryable } from '../../../internal/pg.js';
import type { LeavesQuery } from './schema.js';
import { bindTreeScope, claimedLeavesSql, mergedPageSql, treeScopeFilter } from './treeSql.js';

export type LeafRow = { recipient: string; token: string; amount: string; claimed: string };
export type LeavesTotals = {
  total_count: number;
  total_amount: string;
  total_claimed: string;
  total_positive: string;
  total_negative: string;
};

/**
 * One page of the leaves of a token in the tree `seq` (recipient filter, sort, paging), each with what its
 * recipient claimed of the token capped at its amount, and the count and sums over every leaf. Bounded at a
 * million leaves (issue #30; it summed the claims of every leaf and sorted them all, 2.5–3 s):
 * - the count and amount of the token's leaves are its totals row of the tree (reward_token_totals), the
 *   claimed sums are read over the recipients who claimed (claimed_totals), every other leaf claiming 0;
 * - a page walks the leaves in its order by index (reward_leaf_versions_token_amount_idx by amount, the
 *   primary key by recipient) as far as offset + items; sorted by claimed or pending, the leaves with a
 *   positive claim (read over the claimers) and the others (claimed 0, so in amount or recipient order by
 *   index) are each walked that far and merged.
 * Tables reward_leaf_versions, reward_token_totals, claimed_totals.
 */
export async function leavesPage(
  pg: Queryable,
  q: LeavesQuery,
  seq: string,
): Promise<{ rows: LeafRow[]; totals: LeavesTotals }> {
  const [rows, totals] = await Promise.all([pageRows(pg, q, seq), leavesTotals(pg, q, seq)]);
  return { rows, totals };
}

async function pageRows(pg: Queryable, q: LeavesQuery, seq: string): Promise<LeafRow[]> {
  const { args, p } = bindTreeScope(q, seq);
  const items = args.add(q.items);
  const offset = args.add(q.page * q.items);
  const dir = q.order === 'asc' ? 'ASC' : 'DESC';
  const where = treeScopeFilter('v', p);
  const columns = `recipient, ${p.token}::text AS token, amount::text AS amount, claimed::text AS claimed`;
  let sql: string;
  if (q.sort === 'amount' || q.sort === 'recipient') {
    const order = q.sort === 'amount' ? `v.amount ${dir}, v.recipient` : `v.recipient ${dir}`;
    sql = `SELECT ${columns} FROM (
      SELECT v.recipient, v.amount, least(v.amount, coalesce(k.amount, 0)) AS claimed
      FROM reward_leaf_versions v
      LEFT JOIN claimed_totals k ON k.chain_id = v.chain_id AND k.recipient = v.recipient AND k.token = v.token
      WHERE ${where}) v ORDER BY ${order} LIMIT ${items} OFFSET ${offset}`;
  } else {
    // Leaves with a positive claim, and the others (claimed 0: pending is the amount).
    const key = q.sort === 'claimed' ? 'claimed' : 'pending';
    const reach = args.add(q.page * q.items + q.items);
    const tailOrder = q.sort === 'claimed' ? 'v.recipient' : `v.amount ${dir}, v.recipient`;
    sql = `WITH claimed AS MATERIALIZED (${claimedLeavesSql(p)})
      ${mergedPageSql({
        columns,
        parts: [
          `SELECT c.recipient, c.amount, c.claimed, c.amount - c.claimed AS pending FROM claimed c
           WHERE c.claimed > 0 ORDER BY ${key} ${dir}, c.recipient LIMIT ${reach}`,
          `SELECT v.recipient, v.amount, 0::numeric AS claimed, v.amount AS pending FROM reward_leaf_versions v
           WHERE ${where} AND NOT EXISTS (SELECT 1 FROM claimed c WHERE c.recipient = v.recipient AND c.claimed > 0)
           ORDER BY ${tailOrder} LIMIT ${reach}`,
        ],
        order: `m.${key} ${dir}, m.recipient`,
        items,
        offset,
      })}`;
  }
  const { rows } = await pg.query<LeafRow>(sql, args.values);
  return rows;
}

async function leavesTotals(pg: Queryable, q: LeavesQuery, seq: string): Promise<LeavesTotals> {
  const { args, p } = bindTreeScope(q, seq);
  // The token's totals row of the tree (the latest at or before its seq), or the one recipient's leaf.
  const counted = p.recipient
    ? `SELECT count(*) AS n, coalesce(sum(v.amount), 0) AS amount FROM reward_leaf_versions v WHERE ${treeScopeFilter('v', p)}`
    : `SELECT coalesce(t.recipients, 0) AS n, coalesce(t.amount, 0) AS amount FROM (SELECT 1) one
       LEFT JOIN LATERAL (SELECT recipients, amount FROM reward_token_totals
         WHERE chain_id = ${p.chain} AND token = ${p.token} AND seq <= ${p.seq} ORDER BY seq DESC LIMIT 1) t ON true`;
  const { rows } = await pg.query<LeavesTotals>(
    `SELECT n.n::int AS total_count, n.amount::text AS total_amount, c.claimed::text AS total_claimed,
       (n.amount - c.claimed)::text AS total_positive, (-c.overpaid)::text AS total_negative
     FROM (${counted}) n,
       (SELECT coalesce(sum(claimed), 0) AS claimed, coalesce(sum(overpaid), 0) AS overpaid FROM (${claimedLeavesSql(p)}) l) c`,
    args.values,
  );
  return rows[0]!;
}
