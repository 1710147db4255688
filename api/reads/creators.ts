import type { Queryable } from '../../internal/pg.js';

/** A creator: a `creators` row, or an implicit one (an address with campaigns and no row; id = address). */
export type CreatorRecord = {
  id: string;
  name: string;
  icon: string | null;
  rebateFee: number;
  addresses: string[];
  tags: string[];
  registered: boolean;
};

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

type CreatorDbRow = {
  id: string;
  name: string;
  icon: string | null;
  rebate_fee: number;
  addresses: string[];
  tags: string[];
  registered: boolean;
};

const toCreatorRecord = (r: CreatorDbRow): CreatorRecord => ({
  id: r.id,
  name: r.name,
  icon: r.icon,
  rebateFee: Number(r.rebate_fee),
  addresses: r.addresses,
  tags: r.tags,
  registered: r.registered,
});
