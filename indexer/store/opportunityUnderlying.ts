import type { PgClient } from '../../internal/pg.js';
import type { OpportunityUnderlying } from '../../domain/opportunityUnderlying.js';

/**
 * Upserts what each pool or market opportunity stands on (opportunity_underlying), as its TVL reader
 * identified it this run; an opportunity whose reader identified nothing keeps its previous row (a
 * failed read does not forget a pool's tokens).
 * @returns ids whose row is new or changed: their documents' name and tokens change (to re-project).
 */
export async function upsertOpportunityUnderlying(
  client: PgClient,
  rows: { opportunityId: string; underlying: OpportunityUnderlying }[],
  readAt: Date,
): Promise<string[]> {
  if (!rows.length) return [];
  const { rows: changed } = await client.query<{ id: string }>(
    // The token lists travel as JSON (a text[][] parameter must be rectangular).
    `WITH raw AS (
       SELECT * FROM unnest($1::text[], $2::jsonb[], $3::int[], $4::numeric[], $5::text[], $7::int[], $8::text[])
         AS i(id, tokens_json, fee, lltv, contract, tick_spacing, hooks)),
     input AS (SELECT r.*, ARRAY(SELECT jsonb_array_elements_text(r.tokens_json)) AS tokens FROM raw r),
     changed AS (
       SELECT i.id FROM input i LEFT JOIN opportunity_underlying u ON u.opportunity_id = i.id
       WHERE u.opportunity_id IS NULL
         OR (u.tokens, u.fee, u.lltv, u.contract, u.tick_spacing, u.hooks) IS DISTINCT FROM (i.tokens, i.fee, i.lltv, i.contract, i.tick_spacing, i.hooks)),
     upsert AS (
       INSERT INTO opportunity_underlying (opportunity_id, tokens, fee, lltv, contract, tick_spacing, hooks, read_at)
       SELECT id, tokens, fee, lltv, contract, tick_spacing, hooks, $6 FROM input
       ON CONFLICT (opportunity_id) DO UPDATE SET tokens = EXCLUDED.tokens, fee = EXCLUDED.fee, lltv = EXCLUDED.lltv,
         contract = EXCLUDED.contract, tick_spacing = EXCLUDED.tick_spacing, hooks = EXCLUDED.hooks, read_at = EXCLUDED.read_at)
     SELECT id FROM changed`,
    [
      rows.map((r) => r.opportunityId),
      rows.map((r) => JSON.stringify(r.underlying.tokens.map((t) => t.toLowerCase()))),
      rows.map((r) => r.underlying.fee),
      rows.map((r) => r.underlying.lltv),
      rows.map((r) => r.underlying.contract.toLowerCase()),
      readAt,
      rows.map((r) => r.underlying.tickSpacing ?? null),
      rows.map((r) => r.underlying.hooks?.toLowerCase() ?? null),
    ],
  );
  return changed.map((r) => r.id);
}
