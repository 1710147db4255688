import type { Queryable } from '../internal/pg.js';

export type CreatorInput = {
  id: string;
  name: string;
  icon?: string | null;
  rebateFee?: number;
  addresses: string[];
  tags?: string[];
};

/** Creators of the quick start's demo (hardhat accounts #0, #2 and #3 create its campaigns, see scripts/seedDemo.ts). */
export const DEMO_CREATORS: readonly CreatorInput[] = [
  { id: 'devnet-labs', name: 'Devnet Labs', addresses: ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'], tags: ['demo'] },
  {
    id: 'pool-partners',
    name: 'Pool Partners',
    addresses: ['0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'],
    tags: ['demo', 'dex'],
  },
  {
    id: 'lending-dao',
    name: 'Lending DAO',
    addresses: ['0x90f79bf6eb2c4f937b6d6aa5ce2e4d5a9f8aa7ad'],
    tags: ['demo', 'lending'],
  },
];

/**
 * Batch upsert of creators by id (addresses lower-cased); re-running is harmless. The campaigns of
 * every address a creator had or now has, and their opportunities, are queued for re-publication
 * (their documents carry the creator's id and tags), in the same statement. `keepExisting` inserts
 * only the creators that have no row yet and leaves the others as they are (an operator's curation).
 */
export async function upsertCreators(
  db: Queryable,
  creators: readonly CreatorInput[],
  { keepExisting = false }: { keepExisting?: boolean } = {},
): Promise<void> {
  if (!creators.length) return;
  const onConflict = keepExisting
    ? 'DO NOTHING'
    : `DO UPDATE SET name = EXCLUDED.name, icon = EXCLUDED.icon, rebate_fee = EXCLUDED.rebate_fee,
       addresses = EXCLUDED.addresses, tags = EXCLUDED.tags, updated_at = now()`;
  await db.query(
    `WITH input AS (
       SELECT c.id, c.name, c.icon, c.rebate_fee, ARRAY(SELECT json_array_elements_text(c.addresses)) AS addresses, ARRAY(SELECT json_array_elements_text(c.tags)) AS tags
       FROM json_to_recordset($1::json) AS c(id text, name text, icon text, rebate_fee float8, addresses json, tags json)
       WHERE NOT $2::boolean OR NOT EXISTS (SELECT 1 FROM creators k WHERE k.id = c.id)),
     touched AS (
       SELECT unnest(addresses) AS address FROM input
       UNION SELECT unnest(k.addresses) FROM creators k JOIN input i ON i.id = k.id),
     affected AS (SELECT c.id, c.opportunity_id FROM campaigns_current c JOIN touched t ON t.address = c.creator),
     queued AS (
       INSERT INTO search_outbox (entity, entity_id)
       SELECT 'campaign', id FROM affected UNION SELECT 'opportunity', opportunity_id FROM affected WHERE opportunity_id IS NOT NULL)
     INSERT INTO creators (id, name, icon, rebate_fee, addresses, tags) SELECT id, name, icon, rebate_fee, addresses, tags FROM input
     ON CONFLICT (id) ${onConflict}`,
    [
      JSON.stringify(
        creators.map((c) => ({
          id: c.id,
          name: c.name,
          icon: c.icon ?? null,
          rebate_fee: c.rebateFee ?? 0,
          addresses: c.addresses.map((a) => a.toLowerCase()),
          tags: c.tags ?? [],
        })),
      ),
      keepExisting,
    ],
  );
}

/**
 * Seeds the demo creators (DEMO_CREATORS) for the quick start: only those missing, so a creator an operator
 * curated through the back office (PATCH /v4/creators/{id}) keeps its fields across restarts. Table creators.
 */
export async function seedCreators(db: Queryable): Promise<void> {
  await upsertCreators(db, DEMO_CREATORS, { keepExisting: true });
}
