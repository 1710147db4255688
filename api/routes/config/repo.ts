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

/** Records that a campaign uses a configuration (idempotent). Table campaign_config_associations. */
export async function associateConfig(
  db: Queryable,
  a: { hash: string; distributionChainId: number; campaignId: string },
): Promise<void> {
  await db.query(
    `INSERT INTO campaign_config_associations (config_hash, distribution_chain_id, campaign_id) VALUES ($1, $2, $3)
     ON CONFLICT DO NOTHING`,
    [a.hash, a.distributionChainId, a.campaignId],
  );
}
