import type { AttachGrounds } from './attachGrounds.js';
import type { PgClient, PgPool } from '../../../internal/pg.js';

type Queryable = Pick<PgClient | PgPool, 'query'>;

/** Stores a configuration under its hash; storing the same hash again keeps the first row. Table campaign_configs. */
export async function insertConfig(
  db: Queryable,
  row: { hash: string; canonical: string; sizeBytes: number },
): Promise<void> {
  await db.query(
    'INSERT INTO campaign_configs (hash, config, size_bytes) VALUES ($1, $2::jsonb, $3) ON CONFLICT (hash) DO NOTHING',
    [row.hash, row.canonical, row.sizeBytes],
  );
}

/** The configuration stored under `hash`, or null. Table campaign_configs. */
export async function getConfig(db: Queryable, hash: string): Promise<{ config: unknown } | null> {
  const { rows } = await db.query<{ config: unknown }>('SELECT config FROM campaign_configs WHERE hash = $1', [hash]);
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
