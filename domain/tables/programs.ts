import type { Queryable } from '../../internal/pg.js';

/** A program as an opportunity carries it (`activePrograms`): what names it, none of its figures. */
export type ProgramSummary = { id: string; name: string; slug: string; description: string; icon: string };

/**
 * SQL expression: the programs (table programs) whose slug the `program_slugs` column of `opportunityAlias` holds,
 * as a JSON array of ProgramSummary ordered by slug (`[]` when none). A slug naming no program is left out.
 * One expression for the projection (domain/projection/opportunitySources.ts) and the back-office writes.
 */
export function activeProgramsSql(opportunityAlias: string): string {
  return `(SELECT coalesce(json_agg(json_build_object('id', pg_p.id, 'name', pg_p.name, 'slug', pg_p.slug,
      'description', pg_p.description, 'icon', pg_p.icon) ORDER BY pg_p.slug), '[]'::json)
    FROM programs pg_p WHERE pg_p.slug = ANY(${opportunityAlias}.program_slugs))`;
}

/** The curated program fields of opportunities as their documents carry them: `programSlugs` and `activePrograms`. Tables opportunities, programs. */
export async function programFieldsOf(
  db: Queryable,
  ids: readonly string[],
): Promise<Map<string, { programSlugs: string[]; activePrograms: ProgramSummary[] }>> {
  if (!ids.length) return new Map();
  const { rows } = await db.query<{ id: string; program_slugs: string[]; programs: ProgramSummary[] }>(
    `SELECT o.id, o.program_slugs, ${activeProgramsSql('o')} AS programs FROM opportunities o WHERE o.id = ANY($1::text[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, { programSlugs: r.program_slugs, activePrograms: r.programs }]));
}
