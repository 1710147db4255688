import { configInUseSql } from '../../../domain/tables/campaignConfigs.js';
import type { AttachGrounds } from './attachGrounds.js';
import type { PgClient, PgPool } from '../../../internal/pg.js';

type Queryable = Pick<PgClient | PgPool, 'query'>;

/**
 * Stores a configuration under its hash, first stored by `storedBy` (null: the back office). Storing
 * the same hash again keeps the first row and its first storer, and renews stored_at (what the
 * retention job's TTL counts from). Table campaign_configs.
 */
export async function insertConfig(
  db: Queryable,
  row: { hash: string; canonical: string; sizeBytes: number; storedBy: string | null },
): Promise<void> {
  await db.query(
    `INSERT INTO campaign_configs (hash, config, size_bytes, stored_by) VALUES ($1, $2::jsonb, $3, $4)
     ON CONFLICT (hash) DO UPDATE SET stored_at = now()`,
    [row.hash, row.canonical, row.sizeBytes, row.storedBy],
  );
}

/** Renews stored_at of the configuration under `hash` if it is stored. Table campaign_configs. @returns whether it is. */
export async function renewConfig(db: Queryable, hash: string): Promise<boolean> {
  return ((await db.query('UPDATE campaign_configs SET stored_at = now() WHERE hash = $1', [hash])).rowCount ?? 0) > 0;
}

/** Serializes one caller's stores until the transaction ends, so its quota is counted exactly. */
export async function lockConfigStoreCaller(db: Queryable, caller: string): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`config-store:${caller}`]);
}

/**
 * Configurations `caller` first stored within the last `ttlDays` days that no campaign uses
 * (configInUseSql), counted up to `upTo`, and when the oldest of those leaves the window.
 * Table campaign_configs (campaign_config_associations, campaigns, campaign_overrides read).
 */
export async function pendingConfigsOf(
  db: Queryable,
  { caller, ttlDays, upTo }: { caller: string; ttlDays: number; upTo: number },
): Promise<{ count: number; oldestLeavesAt: Date | null }> {
  const { rows } = await db.query<{ count: number; leaves_at: Date | null }>(
    `SELECT count(*)::int AS count, min(stored_at) + make_interval(days => $2) AS leaves_at FROM (
       SELECT stored_at FROM campaign_configs cfg
       WHERE stored_by = $1 AND stored_at >= now() - make_interval(days => $2) AND NOT ${configInUseSql('cfg')}
       ORDER BY stored_at LIMIT $3) pending`,
    [caller, ttlDays, upTo],
  );
  return { count: rows[0]!.count, oldestLeavesAt: rows[0]!.leaves_at };
}

/**
 * The configuration stored under `hash`, or null. `forAttach` (inside the attaching transaction)
 * locks its key until the association is written, so the retention sweep skips it rather than
 * deleting it in between. Table campaign_configs.
 */
export async function getConfig(
  db: Queryable,
  hash: string,
  { forAttach = false }: { forAttach?: boolean } = {},
): Promise<{ config: unknown } | null> {
  const { rows } = await db.query<{ config: unknown }>(
    `SELECT config FROM campaign_configs WHERE hash = $1${forAttach ? ' FOR KEY SHARE' : ''}`,
    [hash],
  );
  return rows[0] ?? null;
}

/**
 * Records that a campaign uses a configuration, and on what grounds (idempotent; a later call with
 * other grounds, e.g. the creator after an unverified legacy row, sets them). Table campaign_config_associations.
 */
export async function associateConfig(
  db: Queryable,
  a: { hash: string; distributionChainId: number; campaignId: string; grounds: AttachGrounds },
): Promise<void> {
  await db.query(
    `INSERT INTO campaign_config_associations (config_hash, distribution_chain_id, campaign_id, grounds) VALUES ($1, $2, $3, $4)
     ON CONFLICT (config_hash, distribution_chain_id, campaign_id) DO UPDATE SET grounds = EXCLUDED.grounds
     WHERE campaign_config_associations.grounds IS DISTINCT FROM EXCLUDED.grounds`,
    [a.hash, a.distributionChainId, a.campaignId, a.grounds],
  );
}
