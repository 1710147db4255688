import type { PgClient } from '../../internal/pg.js';
import type { IndexFamily } from '../../search-mappings/aliases.js';

/** The PostgreSQL table whose rows are the documents of each search family. */
export const SOURCE_TABLE: Record<IndexFamily, string> = { campaigns: 'campaigns', opportunities: 'opportunities' };

/** Every id of the family's table, in keyset pages of `batchSize` ordered by id. */
export async function* familyIdPages(
  client: Pick<PgClient, 'query'>,
  family: IndexFamily,
  batchSize: number,
): AsyncGenerator<string[]> {
  const table = SOURCE_TABLE[family];
  let last: string | null = null;
  for (;;) {
    const page: { rows: { id: string }[] } =
      last === null
        ? await client.query<{ id: string }>(`SELECT id FROM ${table} ORDER BY id LIMIT $1`, [batchSize])
        : await client.query<{ id: string }>(`SELECT id FROM ${table} WHERE id > $1 ORDER BY id LIMIT $2`, [
            last,
            batchSize,
          ]);
    if (!page.rows.length) return;
    const ids = page.rows.map((r) => r.id);
    last = ids[ids.length - 1]!;
    yield ids;
  }
}
