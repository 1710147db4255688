import { currentChainContext } from '../../chainRecords.js';
import { nowSeconds, readPgOf, type ApiDeps } from '../../deps.js';
import { serializeOpportunity } from '../opportunities/serialize.js';
import { loadMemberDocuments, publicCampaignCounts } from './members.js';
import { findProgramRow, listProgramRows, type ProgramRow } from './repo.js';
import type { ListProgramsQuery } from './schema.js';
import { serializeProgram } from './serialize.js';

/**
 * Program records of `rows`: each with its member opportunities (one search for all of them) as Opportunity records
 * and its totals summed over them. Shared by the REST routes, the writes' answers and GraphQL.
 */
export async function programRecords(deps: ApiDeps, rows: readonly ProgramRow[]) {
  const now = nowSeconds(deps);
  const [{ chains }, docs] = await Promise.all([
    currentChainContext(deps, now),
    loadMemberDocuments(
      deps,
      rows.map((r) => r.slug),
    ),
  ]);
  const counts = await publicCampaignCounts(
    deps,
    docs.map((d) => d.id),
  );
  const records = docs.map((d) => ({ slugs: d.programSlugs, record: serializeOpportunity(d, chains, now) }));
  return rows.map((row) =>
    serializeProgram(
      row,
      records.filter((m) => m.slugs.includes(row.slug)).map((m) => m.record),
      counts,
    ),
  );
}

/** One page of programs with their opportunities and totals (GET /v4/programs, GraphQL `programs`). */
export async function listPrograms(deps: ApiDeps, q: ListProgramsQuery) {
  return programRecords(deps, await listProgramRows(readPgOf(deps), q));
}

/** One program by id or slug with its opportunities and totals; null when there is none. */
export async function getProgram(deps: ApiDeps, idOrSlug: string) {
  const row = await findProgramRow(readPgOf(deps), idOrSlug);
  return row ? (await programRecords(deps, [row]))[0]! : null;
}
