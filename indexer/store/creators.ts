import type { PgClient, PgPool } from '../../internal/pg.js';

type Queryable = Pick<PgClient | PgPool, 'query'>;

/** A creator: a `creators` row, or an implicit one (an address with campaigns and no row; id = address). */
export type CreatorRecord = { id: string; name: string; icon: string | null; rebateFee: number; addresses: string[]; tags: string[]; registered: boolean };

export type CreatorInput = { id: string; name: string; icon?: string | null; rebateFee?: number; addresses: string[]; tags?: string[] };

/** Creators of the quick start's demo (hardhat accounts #0, #2 and #3 create its campaigns, see scripts/seedDemo.ts). */
export const DEMO_CREATORS: readonly CreatorInput[] = [
  { id: 'devnet-labs', name: 'Devnet Labs', addresses: ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'], tags: ['demo'] },
  { id: 'pool-partners', name: 'Pool Partners', addresses: ['0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'], tags: ['demo', 'dex'] },
  { id: 'lending-dao', name: 'Lending DAO', addresses: ['0x90f79bf6eb2c4f937b6d6aa5ce2e4d5a9f8aa7ad'], tags: ['demo', 'lending'] },
];

/**
 * Batch upsert of creators by id (addresses lower-cased); re-running is harmless. The campaigns of
 * every address a creator had or now has, and their opportunities, are queued for re-publication
 * (their documents carry the creator's id and tags), in the same statement.
 */
export async function upsertCreators(db: Queryable, creators: readonly CreatorInput[]): Promise<void> {
  if (!creators.length) return;
  await db.query(
    `WITH input AS (
       SELECT c.id, c.name, c.icon, c.rebate_fee, ARRAY(SELECT json_array_elements_text(c.addresses)) AS addresses, ARRAY(SELECT json_array_elements_text(c.tags)) AS tags
       FROM json_to_recordset($1::json) AS c(id text, name text, icon text, rebate_fee float8, addresses json, tags json)),
     touched AS (
       SELECT unnest(addresses) AS address FROM input
       UNION SELECT unnest(k.addresses) FROM creators k JOIN input i ON i.id = k.id),
     affected AS (SELECT c.id, c.opportunity_id FROM campaigns_current c JOIN touched t ON t.address = c.creator),
     queued AS (
       INSERT INTO search_outbox (entity, entity_id)
       SELECT 'campaign', id FROM affected UNION SELECT 'opportunity', opportunity_id FROM affected WHERE opportunity_id IS NOT NULL)
     INSERT INTO creators (id, name, icon, rebate_fee, addresses, tags) SELECT id, name, icon, rebate_fee, addresses, tags FROM input
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, icon = EXCLUDED.icon, rebate_fee = EXCLUDED.rebate_fee,
       addresses = EXCLUDED.addresses, tags = EXCLUDED.tags, updated_at = now()`,
    [JSON.stringify(creators.map((c) => ({
      id: c.id, name: c.name, icon: c.icon ?? null, rebate_fee: c.rebateFee ?? 0, addresses: c.addresses.map((a) => a.toLowerCase()), tags: c.tags ?? [],
    })))],
  );
}

/** Seeds the demo creators (DEMO_CREATORS) for the quick start. Table creators. */
export async function seedCreators(db: Queryable): Promise<void> {
  await upsertCreators(db, DEMO_CREATORS);
}

export type ListCreatorsParams = { id?: string; address?: string; search?: string; page: number; items: number };

/**
 * Registered creators plus implicit ones (campaign creator addresses no creator row names),
 * registered first then by id. `id` is exact; `address` matches any of a creator's addresses;
 * `search` is a case-insensitive substring of the id or name, or a prefix of an address.
 * Tables creators, campaigns.
 */
export async function listCreators(db: Queryable, p: ListCreatorsParams): Promise<CreatorRecord[]> {
  const search = p.search?.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`) ?? null;
  const { rows } = await db.query<CreatorDbRow>(
    `${ALL_CREATORS}
     SELECT * FROM all_creators
     WHERE ($1::text IS NULL OR id = lower($1))
       AND ($2::text IS NULL OR lower($2) = ANY(addresses))
       AND ($3::text IS NULL OR id LIKE '%' || $3 || '%' OR lower(name) LIKE '%' || $3 || '%'
            OR EXISTS (SELECT 1 FROM unnest(addresses) a WHERE a LIKE $3 || '%'))
     ORDER BY registered DESC, id LIMIT $4 OFFSET $5`,
    [p.id ?? null, p.address ?? null, search, p.items, p.page * p.items],
  );
  return rows.map(toCreatorRecord);
}

/**
 * One creator by id (slug), or by one of its addresses (a registered creator's address resolves
 * to it; an address with campaigns and no row is the implicit creator). Null when unknown.
 */
export async function findCreator(db: Queryable, idOrAddress: string): Promise<CreatorRecord | null> {
  const { rows } = await db.query<CreatorDbRow>(
    `${ALL_CREATORS}
     SELECT * FROM all_creators WHERE id = lower($1) OR lower($1) = ANY(addresses) ORDER BY registered DESC LIMIT 1`,
    [idOrAddress],
  );
  return rows[0] ? toCreatorRecord(rows[0]) : null;
}

const ALL_CREATORS = `WITH all_creators AS (
  SELECT id, name, icon, rebate_fee, addresses, tags, true AS registered FROM creators
  UNION ALL
  SELECT DISTINCT lower(c.creator), lower(c.creator), NULL::text, 0::float8, ARRAY[lower(c.creator)], '{}'::text[], false
  FROM campaigns c WHERE NOT EXISTS (SELECT 1 FROM creators k WHERE lower(c.creator) = ANY(k.addresses))
)`;

type CreatorDbRow = { id: string; name: string; icon: string | null; rebate_fee: number; addresses: string[]; tags: string[]; registered: boolean };

const toCreatorRecord = (r: CreatorDbRow): CreatorRecord => ({
  id: r.id, name: r.name, icon: r.icon, rebateFee: Number(r.rebate_fee), addresses: r.addresses, tags: r.tags, registered: r.registered,
});
