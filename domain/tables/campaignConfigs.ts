import type { Queryable } from '../../internal/pg.js';

/**
 * SQL predicate: the campaign_configs row `alias` is used by a campaign, so it is kept whatever its
 * age: an association row names it (api/routes/config/attachGrounds.ts, on any grounds), or a
 * campaign's on-chain campaignData, as created or as any override set it, is exactly its hash (the
 * config-hash form). The last two read the partial indexes of migration 2026_11_28_00.
 */
export function configInUseSql(alias: string): string {
  return `(EXISTS (SELECT 1 FROM campaign_config_associations a WHERE a.config_hash = ${alias}.hash)
    OR EXISTS (SELECT 1 FROM campaigns c WHERE length(c.campaign_data) = 66 AND lower(c.campaign_data) = ${alias}.hash)
    OR EXISTS (SELECT 1 FROM campaign_overrides o WHERE length(o.campaign_data) = 66 AND lower(o.campaign_data) = ${alias}.hash))`;
}

/** Where a sweep of unused configurations stands: past rows are keyed by (stored_at, hash), stored_at as exact text. */
export type ConfigSweepKey = { storedAt: string; hash: string };

export type PlanConfigSweepResult = { cutoff: string; candidates: number };

/**
 * The cutoff of a sweep (configurations last stored `ttlDays` ago or earlier, fixed for the whole
 * sweep) and how many rows are that old (used or not: the progress total). Table campaign_configs.
 */
export async function planConfigSweep(db: Queryable, ttlDays: number): Promise<PlanConfigSweepResult> {
  const { rows } = await db.query<{ cutoff: string; candidates: number }>(
    `WITH t AS (SELECT now() - make_interval(days => $1) AS cutoff)
     SELECT t.cutoff::text AS cutoff, (SELECT count(*)::int FROM campaign_configs WHERE stored_at < t.cutoff) AS candidates FROM t`,
    [ttlDays],
  );
  return rows[0]!;
}

export type DeleteUnusedConfigsParams = { cutoff: string; after: ConfigSweepKey | null; batchSize: number };
export type DeleteUnusedConfigsResult = { scanned: number; deleted: number; last: ConfigSweepKey | null };

/**
 * One batch of the sweep: the next `batchSize` configurations older than `cutoff` after `after`, in
 * (stored_at, hash) order, and deletes those no campaign uses (configInUseSql). Kept rows are walked
 * past, never scanned again. `last` is null once none is left. A row locked by a request (a store
 * renewing it, a read attaching it: api/routes/config/repo.ts) is skipped, not waited for: it is in
 * use. An association committed between this statement's snapshot and its lock makes the delete fail
 * on the foreign key (23503), never lose the row: the caller runs the batch again.
 * Table campaign_configs (campaign_config_associations, campaigns, campaign_overrides read).
 */
export async function deleteUnusedConfigs(
  db: Queryable,
  { cutoff, after, batchSize }: DeleteUnusedConfigsParams,
): Promise<DeleteUnusedConfigsResult> {
  const { rows } = await db.query<{
    scanned: number;
    deleted: number;
    last_at: string | null;
    last_hash: string | null;
  }>(
    `WITH batch AS (
       SELECT hash, stored_at FROM campaign_configs
       WHERE stored_at < $1::timestamptz AND (stored_at, hash) > ($2::timestamptz, $3::text)
       ORDER BY stored_at, hash LIMIT $4
     ), unused AS (
       SELECT cfg.hash FROM campaign_configs cfg JOIN batch b ON b.hash = cfg.hash
       WHERE cfg.stored_at < $1::timestamptz AND NOT ${configInUseSql('cfg')}
       FOR UPDATE OF cfg SKIP LOCKED
     ), gone AS (
       DELETE FROM campaign_configs cfg USING unused u WHERE cfg.hash = u.hash RETURNING cfg.hash
     ), last AS (SELECT stored_at, hash FROM batch ORDER BY stored_at DESC, hash DESC LIMIT 1)
     SELECT (SELECT count(*)::int FROM batch) AS scanned, (SELECT count(*)::int FROM gone) AS deleted,
       (SELECT stored_at::text FROM last) AS last_at, (SELECT hash FROM last) AS last_hash`,
    [cutoff, after?.storedAt ?? '-infinity', after?.hash ?? '', batchSize],
  );
  const row = rows[0]!;
  return {
    scanned: row.scanned,
    deleted: row.deleted,
    last: row.last_at && row.last_hash ? { storedAt: row.last_at, hash: row.last_hash } : null,
  };
}
