import { rollupFreshSql, type LivePositions } from '../../domain/tables/distributed.js';
import type { PgClient, PgPool } from '../../internal/pg.js';
import {
  groupedColumns,
  toGroup,
  type DistributedBy,
  type DistributedCampaignFilter,
  type DistributedGroupOf,
  type DistributedParams,
  type GroupRow,
} from './distributedGroups.js';

/**
 * What the live roots distributed, grouped `by` token or type, from the facet rollup
 * (distributed_facet_rollup, or distributed_type_rollup keyed by type;
 * sql/migrations/2026_12_03_08_distributed_facet_rollup.sql): a sum over its rows of the window, under the facets the filter keeps (compute chain, test reward token,
 * sub-campaign; private campaigns: all, none, or the visible ones by id). Checked fresh in the same
 * statement (rollupFreshSql: no write since its rebuild, built for exactly these live roots).
 * The filter must have no status (a campaign's status is not a facet).
 * @returns the groups, or null when the rollup is stale: the caller answers exactly.
 */
export async function loadRolledUpGroups<B extends DistributedBy>(
  db: PgPool | PgClient,
  by: B,
  live: LivePositions,
  p: DistributedParams,
  f: DistributedCampaignFilter,
): Promise<DistributedGroupOf<B>[] | null> {
  const values: unknown[] = [live.chainIds, live.blocks, live.logIndexes, p.from, p.to, p.grain];
  const arg = (v: unknown) => {
    values.push(v);
    return `$${values.length}`;
  };
  const where = [
    'f.fresh',
    'chain_id = ANY($1::int[])',
    '($4::bigint IS NULL OR timestamp >= $4)',
    '($5::bigint IS NULL OR timestamp <= $5)',
    f.test ? null : 'NOT is_test',
    f.excludeSubCampaigns ? 'NOT is_sub_campaign' : null,
    f.computeChainId !== undefined ? `compute_chain_id = ${arg(f.computeChainId)}` : null,
    f.visible === 'all'
      ? null
      : f.visible === 'none' || !f.visible.length
        ? 'private_campaign_db_id IS NULL'
        : `(private_campaign_db_id IS NULL OR private_campaign_db_id = ANY(${arg([...f.visible])}::text[]))`,
  ];
  const table = by === 'token' ? 'distributed_facet_rollup' : 'distributed_type_rollup';
  const period = `CASE WHEN $6::text = 'month' THEN month END`;
  // One row with `fresh` false when stale; else the groups (one row of nulls when there are none).
  const { rows } = await db.query<{ fresh: boolean } & { [K in keyof GroupRow]: GroupRow[K] | null }>(
    `SELECT f.fresh, g.* FROM (SELECT ${rollupFreshSql(1)} AS fresh) f
     LEFT JOIN LATERAL (
       SELECT ${groupedColumns(by, 'amount', period)}
       FROM ${table} WHERE ${where.filter(Boolean).join(' AND ')}
       GROUP BY 1, 2, 3
     ) g ON true`,
    values,
  );
  if (!rows[0]?.fresh) return null;
  return rows.filter((r) => r.chain_id !== null).map((r) => toGroup(by, r as GroupRow));
}
