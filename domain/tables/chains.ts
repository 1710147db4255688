import type { ChainConfig } from '../../internal/config.js';
import type { PgPool } from '../../internal/pg.js';

/** Writes the configured chains' static fields (name, icon, explorers, test flag). */
export async function upsertChains(db: PgPool, chains: ChainConfig[]): Promise<void> {
  await db.query(
    `INSERT INTO chains (id, name, icon, explorers, is_test)
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::jsonb[], $5::bool[])
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, icon = EXCLUDED.icon, explorers = EXCLUDED.explorers,
       is_test = EXCLUDED.is_test, updated_at = now()`,
    [
      chains.map((c) => c.id),
      chains.map((c) => c.name),
      chains.map((c) => c.icon),
      chains.map((c) => JSON.stringify(c.explorers)),
      chains.map((c) => c.test),
    ],
  );
}
