import type { Queryable } from '../../internal/pg.js';
import { type CampaignVisibility, visibilitySqlParams, visibleCampaignSql } from '../visibility/campaignVisibility.js';

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

/** The registered creators a list asks for: $1 id, $2 one of its addresses, $3 search (LIKE-escaped, lower case). */
const REGISTERED_MATCHING = `WHERE ($1::text IS NULL OR id = lower($1))
       AND ($2::text IS NULL OR addresses @> ARRAY[lower($2)])
       AND ($3::text IS NULL OR id LIKE '%' || $3 || '%' OR lower(name) LIKE '%' || $3 || '%'
            OR EXISTS (SELECT 1 FROM unnest(addresses) a WHERE a LIKE $3 || '%'))`;

/**
 * Registered creators plus implicit ones (creator addresses of campaigns `visible` allows that no
 * creator row names), registered first then by id. `id` is exact; `address` matches any of a
 * creator's addresses; `search` is a case-insensitive substring of a registered creator's id or name,
 * or a prefix of an address (an implicit creator's id and name are its address: a prefix of it).
 * Implicit creators are read through campaigns_creator_idx, one probe per distinct address walked,
 * never the whole campaigns table (audit h-audit, creatorsPrivacy).
 * Tables creators, campaigns, campaign_privacy.
 */
export async function listCreators(
  db: Queryable,
  p: ListCreatorsParams,
  visible: CampaignVisibility,
): Promise<CreatorRecord[]> {
  const search = p.search?.toLowerCase() ?? null;
  const like = search?.replace(/[\\%_]/g, (c) => `\\${c}`) ?? null;
  const offset = p.page * p.items;
  const { rows } = await db.query<CreatorDbRow & { total: number }>(
    `SELECT id, name, icon, rebate_fee, addresses, tags, true AS registered, count(*) OVER ()::int AS total FROM creators
     ${REGISTERED_MATCHING}
     ORDER BY id LIMIT $4 OFFSET $5`,
    [p.id ?? null, p.address ?? null, like, p.items, offset],
  );
  const registered = rows.map(toCreatorRecord);
  if (registered.length === p.items) return registered;
  // The registered creators matching, all counted: the page's implicit ones follow them.
  const before = rows[0]?.total ?? (await countRegistered(db, p, like));
  const exact = p.id !== undefined || p.address !== undefined ? exactAddress(p) : undefined;
  const implicit =
    exact === null
      ? []
      : await implicitCreators(db, {
          visible,
          ...(exact ? { exact } : {}),
          prefix: search ?? '',
          offset: Math.max(0, offset - before),
          limit: p.items - registered.length,
        });
  return [...registered, ...implicit.map(implicitRecord)];
}

/** The registered creators matching `p` (when the page asked lies past them all). */
async function countRegistered(db: Queryable, p: ListCreatorsParams, like: string | null): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM creators ${REGISTERED_MATCHING}`, [
    p.id ?? null,
    p.address ?? null,
    like,
  ]);
  return rows[0]!.n;
}

/** Pure: the one address an `id` and/or `address` filter leaves an implicit creator (null: none, they differ). */
function exactAddress(p: Pick<ListCreatorsParams, 'id' | 'address'>): string | null {
  const named = [p.id, p.address].filter((v): v is string => v !== undefined).map((v) => v.toLowerCase());
  return named.every((v) => v === named[0]) ? named[0]! : null;
}

/**
 * One creator by id (slug), or by one of its addresses (a registered creator's address resolves
 * to it; an address with campaigns `visible` allows and no row is the implicit creator). Null when
 * unknown, and for an address whose campaigns are all hidden from the caller (as for one that created
 * nothing: a private campaign's creator is not revealed). Tables creators, campaigns, campaign_privacy.
 */
export async function findCreator(
  db: Queryable,
  idOrAddress: string,
  visible: CampaignVisibility,
): Promise<CreatorRecord | null> {
  const { rows } = await db.query<CreatorDbRow>(
    `SELECT id, name, icon, rebate_fee, addresses, tags, true AS registered FROM creators
     WHERE id = lower($1) OR addresses @> ARRAY[lower($1)] ORDER BY id LIMIT 1`,
    [idOrAddress],
  );
  if (rows[0]) return toCreatorRecord(rows[0]);
  if (!ADDRESS.test(idOrAddress)) return null;
  const [implicit] = await implicitCreators(db, {
    visible,
    exact: idOrAddress.toLowerCase(),
    prefix: '',
    offset: 0,
    limit: 1,
  });
  return implicit ? implicitRecord(implicit) : null;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

type ImplicitCreatorsParams = {
  visible: CampaignVisibility;
  /** Only this address (lower case). */
  exact?: string;
  /** Only addresses starting with it (lower case; '' for all). */
  prefix: string;
  offset: number;
  limit: number;
};

/**
 * Implicit creators (lower-case addresses), in order: distinct creator addresses of campaigns, each
 * with a campaign `visible` allows (the one rule, visibleCampaignSql: a private campaign makes its
 * creator known only to those who may see it) and no creator row naming it. The distinct addresses
 * are walked through campaigns_creator_idx (lower(creator)) one probe each from `prefix` on (a skip
 * scan; the recursive CTE yields them in the order it walks them, and the LIMIT stops the walk), so a
 * read costs the addresses it walks, not the campaigns table. Tables campaigns, campaign_privacy, creators.
 */
async function implicitCreators(db: Queryable, p: ImplicitCreatorsParams): Promise<string[]> {
  const { rows } = await db.query<{ a: string }>(
    `WITH RECURSIVE walked AS (
       (SELECT lower(c.creator) AS a FROM campaigns c
        WHERE lower(c.creator) >= coalesce($1::text, $2::text) ORDER BY lower(c.creator) LIMIT 1)
       UNION ALL
       SELECT (SELECT lower(c.creator) FROM campaigns c WHERE lower(c.creator) > w.a ORDER BY lower(c.creator) LIMIT 1)
       FROM walked w WHERE $1::text IS NULL AND starts_with(w.a, $2::text)
     )
     SELECT w.a FROM walked w
     WHERE w.a IS NOT NULL AND starts_with(w.a, $2::text) AND ($1::text IS NULL OR w.a = $1::text)
       AND NOT EXISTS (SELECT 1 FROM creators k WHERE k.addresses @> ARRAY[w.a])
       AND EXISTS (SELECT 1 FROM campaigns c WHERE lower(c.creator) = w.a AND ${visibleCampaignSql('c', 5, 6)})
     LIMIT $3 OFFSET $4`,
    [p.exact ?? null, p.prefix, p.limit, p.offset, ...visibilitySqlParams(p.visible)],
  );
  return rows.map((r) => r.a);
}

const implicitRecord = (a: string): CreatorRecord => ({
  id: a,
  name: a,
  icon: null,
  rebateFee: 0,
  addresses: [a],
  tags: [],
  registered: false,
});

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
