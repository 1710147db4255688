import type { Queryable } from '../internal/pg.js';

export type DemoProgram = {
  slug: string;
  name: string;
  description: string;
  icon: string;
  /** Opportunity types (campaign type names) whose opportunities join the program. */
  opportunityTypes: string[];
};

/** Programs of the quick start's demo: its pools and its lending markets (see MARKET_TYPES in scripts/seedDemo.ts). */
export const DEMO_PROGRAMS: readonly DemoProgram[] = [
  {
    slug: 'devnet-dex-incentives',
    name: 'Devnet DEX Incentives',
    description: 'Liquidity incentives on the demo Uniswap V3 and V4 pools',
    icon: '',
    opportunityTypes: ['CLAMM', 'UNISWAP_V4'],
  },
  {
    slug: 'devnet-lending-program',
    name: 'Devnet Lending Program',
    description: 'Supply and borrow incentives on the demo Morpho Blue and Ajna markets',
    icon: '',
    opportunityTypes: ['MORPHO', 'AJNA'],
  },
];

/**
 * Upserts programs by slug and adds each slug to the `program_slugs` of the opportunities of its types (their
 * documents then carry the program: their outbox entries are queued in the same statement). Re-running is harmless.
 * `keepExisting` writes only the programs that have no row yet (and their members), leaving a program an operator
 * curated (PATCH /v4/programs) as it is. Tables programs, opportunities, search_outbox.
 */
export async function upsertPrograms(
  db: Queryable,
  programs: readonly DemoProgram[],
  { keepExisting = false }: { keepExisting?: boolean } = {},
): Promise<void> {
  if (!programs.length) return;
  await db.query(
    `WITH input AS (
       SELECT p.slug, p.name, p.description, p.icon, ARRAY(SELECT json_array_elements_text(p.types)) AS types
       FROM json_to_recordset($1::json) AS p(slug text, name text, description text, icon text, types json)
       WHERE NOT $2::boolean OR NOT EXISTS (SELECT 1 FROM programs k WHERE k.slug = p.slug)),
     saved AS (
       INSERT INTO programs (slug, name, description, icon) SELECT slug, name, description, icon FROM input
       ON CONFLICT (slug) DO UPDATE SET name = EXCLUDED.name, description = EXCLUDED.description, icon = EXCLUDED.icon,
         updated_at = now()
       RETURNING slug),
     joined AS (
       UPDATE opportunities o SET program_slugs = ARRAY(
           SELECT DISTINCT s FROM unnest(o.program_slugs || ARRAY(SELECT i.slug FROM input i WHERE o.type = ANY(i.types))) AS s ORDER BY s)
       WHERE o.type IN (SELECT unnest(types) FROM input)
       RETURNING o.id)
     INSERT INTO search_outbox (entity, entity_id)
     SELECT 'opportunity', id FROM joined WHERE (SELECT count(*) FROM saved) > 0`,
    [
      JSON.stringify(
        programs.map((p) => ({
          slug: p.slug,
          name: p.name,
          description: p.description,
          icon: p.icon,
          types: p.opportunityTypes,
        })),
      ),
      keepExisting,
    ],
  );
}

/**
 * Seeds the demo programs (DEMO_PROGRAMS) for the quick start, after its campaigns are indexed: only those missing,
 * so a program an operator curated (name, members) keeps them when the quick start runs again on the same chains.
 */
export async function seedPrograms(db: Queryable): Promise<void> {
  await upsertPrograms(db, DEMO_PROGRAMS, { keepExisting: true });
}
