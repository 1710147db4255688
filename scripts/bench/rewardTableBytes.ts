/**
 * Bytes the reward tables hold (scripts/bench/rewards.ts): every table of the public schema whose name
 * starts with `reward` (rewards, reward_breakdowns, reward_trees, reward_tree_chunks, and whatever
 * reward_* table a storage change adds), each with its indexes and TOAST (pg_total_relation_size).
 */
import type { Queryable } from '../../internal/pg.js';

/** Bytes per reward table now, by table name. */
export async function rewardTableBytes(db: Queryable): Promise<Map<string, number>> {
  const { rows } = await db.query<{ name: string; bytes: string }>(
    `SELECT c.relname AS name, pg_total_relation_size(c.oid) AS bytes FROM pg_class c
     WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'm') AND c.relname LIKE 'reward%'
     ORDER BY c.relname`,
  );
  return new Map(rows.map((r) => [r.name, Number(r.bytes)]));
}

/** Pure: what each table grew by between two readings (a table that appeared counts from 0), and the total. */
export function bytesAdded(
  before: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>,
): { total: number; byTable: [string, number][] } {
  const byTable = [...after].map(([name, bytes]) => [name, bytes - (before.get(name) ?? 0)] as [string, number]);
  return { total: byTable.reduce((sum, [, bytes]) => sum + bytes, 0), byTable };
}
