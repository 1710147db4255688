import type { ChainConfig } from '../../internal/config.js';
import type { PgPool } from '../../internal/pg.js';

/** `column = EXCLUDED.column` unless the back office curated it (chains.curated_fields): the operator's edit stays. */
const unlessCurated = (column: string) =>
  `${column} = CASE WHEN '${column}' = ANY(chains.curated_fields) THEN chains.${column} ELSE EXCLUDED.${column} END`;

/**
 * Writes the configured chains' static fields (name, icon, explorers, test flag); a field the back office curated
 * (PATCH /v4/chains/{chainId}, listed in `curated_fields`) is left as the operator set it.
 */
export async function upsertChains(db: PgPool, chains: ChainConfig[]): Promise<void> {
  await db.query(
    `INSERT INTO chains (id, name, icon, explorers, is_test)
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::jsonb[], $5::bool[])
     ON CONFLICT (id) DO UPDATE SET ${unlessCurated('name')}, ${unlessCurated('icon')}, ${unlessCurated('explorers')},
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
