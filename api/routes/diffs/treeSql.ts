/**
 * SQL pieces of the back-office reads of one stored tree (issue #30): they read the versions valid at the
 * tree's `seq` directly (not the `rewards` views, which join every leaf of the chain), and what a recipient
 * claimed from claimed_totals (sql/migrations/2026_12_01_34_claimed_totals.sql: the sum of its Claimed rows,
 * kept by a trigger), so that only the recipients who claimed are read for the claimed columns.
 */
import { createArgs } from '../../../internal/pg.js';

/** SQL: version `alias` is valid in the tree `seq` (a parameter). */
export const validAt = (alias: string, seq: string) =>
  `${alias}.since_seq <= ${seq} AND (${alias}.until_seq IS NULL OR ${alias}.until_seq > ${seq})`;

/** The parameters naming a token's rows valid in one tree (one recipient's when given): leaves and breakdowns alike. */
export type TreeScope = { chain: string; seq: string; token: string; recipient: string | null };

/** Fresh statement arguments holding the scope of a leaves or breakdowns read. */
export function bindTreeScope(q: { chainId: number; tokenAddress: string; recipient?: string }, seq: string) {
  const args = createArgs();
  const p: TreeScope = {
    chain: args.add(q.chainId),
    seq: args.add(seq),
    token: args.add(q.tokenAddress.toLowerCase()),
    recipient: q.recipient ? args.add(q.recipient.toLowerCase()) : null,
  };
  return { args, p };
}

/** The scope's filter on `alias` (reward_leaf_versions or reward_breakdown_versions). */
export const treeScopeFilter = (alias: string, p: TreeScope) =>
  `${alias}.chain_id = ${p.chain} AND ${alias}.token = ${p.token} AND ${validAt(alias, p.seq)}${p.recipient ? ` AND ${alias}.recipient = ${p.recipient}` : ''}`;

/**
 * SQL: the leaves of `token` in the tree `seq` of `chain` whose recipient claimed something of the token (a
 * claimed_totals row, read by claimed_totals_chain_token_idx), each with its amount, `claimed` (capped at the
 * amount) and `overpaid` (claimed beyond it); `recipient` (a parameter or null) narrows them to one address.
 * Every other leaf has claimed 0 and overpaid 0.
 */
export function claimedLeavesSql(p: { chain: string; seq: string; token: string; recipient: string | null }): string {
  // One leaf looked up per claimer (LIMIT 1: a key has one version valid in a tree), never a pass over every
  // leaf of the token, which PostgreSQL may otherwise prefer to hash when claimers are a twentieth of them.
  return `SELECT k.recipient, v.amount, least(v.amount, k.amount) AS claimed, greatest(k.amount - v.amount, 0) AS overpaid
    FROM claimed_totals k CROSS JOIN LATERAL (SELECT v.amount FROM reward_leaf_versions v
      WHERE v.chain_id = k.chain_id AND v.recipient = k.recipient AND v.token = k.token AND ${validAt('v', p.seq)} LIMIT 1) v
    WHERE k.chain_id = ${p.chain} AND k.token = ${p.token}${p.recipient ? ` AND k.recipient = ${p.recipient}` : ''}`;
}

/**
 * SQL of a page over parts that each list their rows in the page's order: the first `reach` rows of each
 * (LIMIT inside `parts`, reach = offset + items) hold every row of the page, so only those are sorted, not
 * the whole set (`SELECT … ORDER BY … LIMIT reach` each, its columns named alike; `columns` and `order` on alias `m`, qualified: a bare
 * name in ORDER BY would be an output column, the text it is cast to).
 */
export function mergedPageSql(p: {
  columns: string;
  parts: readonly string[];
  order: string;
  items: string;
  offset: string;
}): string {
  return `SELECT ${p.columns} FROM (${p.parts.map((s) => `(${s})`).join(' UNION ALL ')}) m
    ORDER BY ${p.order} LIMIT ${p.items} OFFSET ${p.offset}`;
}
