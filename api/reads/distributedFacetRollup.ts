import { rollupClockSql, rollupFreshSql, statusSql, type LivePositions } from '../../domain/tables/distributed.js';
import type { PgClient, PgPool } from '../../internal/pg.js';
import {
  distributedArgs,
  groupedColumns,
  toGroup,
  type DistributedBy,
  type DistributedCampaignFilter,
  type DistributedGroupOf,
  type DistributedParams,
  type GroupRow,
} from './distributedGroups.js';

/**
 * SQL of a rollup read under the filter: `fresh`, whether the rollups may answer (rollupFreshSql over
 * the live roots at $1–$3: no write since their rebuild, built for exactly these live roots; with a
 * status filter, their horizon holds `now`: rollupClockSql), and `where`, the conditions (to AND) on
 * the rows it keeps: the facets (compute chain, test reward token, sub-campaign; private campaigns:
 * all, none, or the visible ones by id) and, with statuses, the campaigns' clamped bounds at `now`
 * (statusSql). `arg` binds a value and returns its placeholder.
 */
export function rollupFilterSql(
  f: DistributedCampaignFilter,
  arg: (v: unknown) => string,
): { fresh: string; where: string[] } {
  const now = f.statuses ? `${arg(f.now)}::bigint` : '';
  const where = [
    f.test ? null : 'NOT is_test',
    f.excludeSubCampaigns ? 'NOT is_sub_campaign' : null,
    f.computeChainId !== undefined ? `compute_chain_id = ${arg(f.computeChainId)}` : null,
    f.visible === 'all'
      ? null
      : f.visible === 'none' || !f.visible.length
        ? 'private_campaign_db_id IS NULL'
        : `(private_campaign_db_id IS NULL OR private_campaign_db_id = ANY(${arg([...f.visible])}::text[]))`,
    f.statuses ? statusSql(f.statuses, now) : null,
  ].filter((c): c is string => c !== null);
  const fresh = f.statuses ? `(${rollupFreshSql(1)} AND ${rollupClockSql(now)})` : rollupFreshSql(1);
  return { fresh, where };
}

/**
 * Runs a rollup read in one statement behind its freshness test: `groups` (a SELECT keeping rows only
 * `WHERE f.fresh`, after the CTEs `ctes` when given) joined to `fresh`, so a stale rollup answers one
 * row with `fresh` false. `present` names a column no group has null (the row of nulls an empty read
 * gives has).
 * @returns the groups, or null when the rollups are stale.
 */
export async function queryWhenFresh<R extends object>(
  db: PgPool | PgClient,
  { ctes, fresh, groups, present }: { ctes?: string; fresh: string; groups: string; present: keyof R & string },
  values: readonly unknown[],
): Promise<R[] | null> {
  const { rows } = await db.query<{ fresh: boolean } & Record<string, unknown>>(
    `${ctes ? `WITH ${ctes} ` : ''}SELECT f.fresh, g.* FROM (SELECT ${fresh} AS fresh) f
     LEFT JOIN LATERAL (${groups}) g ON true`,
    [...values],
  );
  if (!rows[0]?.fresh) return null;
  return rows.filter((r) => r[present] !== null) as unknown as R[];
}

/** Pure: the rollup table of a read keyed `by`, with or without the campaigns' bounds (a status filter). */
function rollupTable(by: DistributedBy, statuses: boolean): string {
  if (by === 'token') return statuses ? 'distributed_status_rollup' : 'distributed_facet_rollup';
  return statuses ? 'distributed_status_type_rollup' : 'distributed_type_rollup';
}

/**
 * What the live roots distributed, grouped `by` token or type, from the facet rollup
 * (distributed_facet_rollup, or distributed_type_rollup keyed by type;
 * sql/migrations/2026_12_03_08_distributed_facet_rollup.sql) or, with a status filter, from the same
 * split by the campaigns' clamped bounds (distributed_status_rollup, distributed_status_type_rollup;
 * 2026_12_04_06): a sum over its rows of the window, under the facets the filter keeps
 * (rollupFilterSql). Checked fresh in the same statement (rollupFreshSql: no write since its
 * rebuild, built for exactly these live roots; with a status, the horizon holds `now`).
 * @returns the groups, or null when the rollup is stale: the caller answers exactly.
 */
export async function loadRolledUpGroups<B extends DistributedBy>(
  db: PgPool | PgClient,
  by: B,
  live: LivePositions,
  p: DistributedParams,
  f: DistributedCampaignFilter,
): Promise<DistributedGroupOf<B>[] | null> {
  const args = distributedArgs(live, p);
  const filter = rollupFilterSql(f, args.add);
  const where = [
    'chain_id = ANY($1::int[])',
    '($4::bigint IS NULL OR timestamp >= $4)',
    '($5::bigint IS NULL OR timestamp <= $5)',
    ...filter.where,
  ];
  const table = rollupTable(by, f.statuses !== undefined);
  const period = `CASE WHEN $6::text = 'month' THEN month END`;
  const rows = await queryWhenFresh<GroupRow>(
    db,
    {
      fresh: filter.fresh,
      groups: `SELECT ${groupedColumns(by, 'amount', period)}
       FROM ${table} WHERE f.fresh AND ${where.join(' AND ')}
       GROUP BY 1, 2, 3`,
      present: 'chain_id',
    },
    args.values,
  );
  return rows === null ? null : rows.map((r) => toGroup(by, r));
}
