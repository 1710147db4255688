import type { Config } from '../../internal/config.js';
import type { EsClient } from '../../internal/es.js';
import { indexNames } from '../../internal/es.js';
import type { PgClient, PgPool } from '../../internal/pg.js';
import { INDEX_FAMILIES, type IndexFamily } from '../../search-mappings/aliases.js';
import { buildDocuments } from '../../domain/projection/buildDocuments.js';
import { familyIdPages } from './familyIds.js';
import { outboxDepth } from '../../domain/tables/outbox.js';
import { COMPARED_FIELDS, compareDocuments, type FieldDifference } from './compareDocuments.js';

/** Table each family's ids come from. */
export type StaleDocument = { id: string; differences: FieldDifference[] };

/** Differences of one kind; `ids`/`documents` list at most `maxIds` of them, `count` all. */
export type Differences = {
  missing: { count: number; ids: string[] };
  extra: { count: number; ids: string[] };
  stale: { count: number; documents: StaleDocument[] };
};

export type FamilyReport = Differences & {
  family: IndexFamily;
  /** Read alias checked. */
  index: string;
  /** Documents PostgreSQL builds for the family, and documents the read alias holds. */
  postgres: number;
  elasticsearch: number;
  /** Differences whose id has an outbox entry waiting: the projector has not caught up yet; they do not make the report fail. */
  pending: Differences;
};

export type ConsistencyReport = {
  ok: boolean;
  checkedAt: string;
  durationMs: number;
  outboxDepth: number;
  families: FamilyReport[];
};

export type CheckConsistencyParams = {
  config: Config;
  pg: PgPool;
  es: EsClient;
  families?: readonly IndexFamily[];
  /** Ids per PostgreSQL page and per Elasticsearch request. */
  batchSize?: number;
  /** Ids listed per kind of difference (counts are always complete). */
  maxIds?: number;
};

/**
 * Compares PostgreSQL with Elasticsearch for each family: ids whose document is missing from the
 * read alias, documents there that PostgreSQL would not build (extra), and documents whose compared
 * fields (COMPARED_FIELDS) differ from what PostgreSQL builds now (stale). A first pass streams the
 * table in keyset pages against realtime multi-gets, a second walks every document of the alias
 * (point in time); every suspect is then checked again from fresh reads, so a change landing while
 * the check runs is not reported. A remaining difference whose id has a pending outbox entry is
 * reported under `pending` and does not fail the check. Memory: one set of the family's ids.
 * Tables: campaigns, opportunities, campaigns_current, tokens, search_outbox. Indices: read aliases.
 * @returns the report; `ok` is true when no family has a difference outside `pending`.
 */
export async function checkConsistency({
  config,
  pg,
  es,
  families = INDEX_FAMILIES,
  batchSize = 500,
  maxIds = 100,
}: CheckConsistencyParams): Promise<ConsistencyReport> {
  const started = Date.now();
  const chainNames = new Map(config.chains.map((c) => [c.id, c.name]));
  const client = await pg.connect();
  try {
    const reports: FamilyReport[] = [];
    for (const family of families) {
      const ctx: FamilyContext = {
        client,
        es,
        family,
        index: indexNames(config.esIndexPrefix, family).read,
        chainNames,
        batchSize,
      };
      const { suspects, postgres } = await scanPostgres(ctx);
      const { extra, elasticsearch } = await scanElasticsearch(ctx, suspects.expected);
      const confirmed = await recheck(ctx, [...new Set([...suspects.ids, ...extra])]);
      const pending = await pendingIds(client, family);
      const split = (pick: (id: string) => boolean) => toDifferences(confirmed, pick, maxIds);
      reports.push({
        family,
        index: ctx.index,
        postgres,
        elasticsearch,
        ...split((id) => !pending.has(id)),
        pending: split((id) => pending.has(id)),
      });
    }
    const { depth } = await outboxDepth(client);
    const ok = reports.every((r) => r.missing.count + r.extra.count + r.stale.count === 0);
    return {
      ok,
      checkedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      outboxDepth: depth,
      families: reports,
    };
  } finally {
    client.release();
  }
}

type FamilyContext = {
  client: PgClient;
  es: EsClient;
  family: IndexFamily;
  index: string;
  chainNames: ReadonlyMap<number, string>;
  batchSize: number;
};

type Finding = { id: string; kind: 'missing' | 'extra' | 'stale'; differences: FieldDifference[] };

/** Pass 1: every id of the table, built and compared with the realtime document. */
async function scanPostgres(
  ctx: FamilyContext,
): Promise<{ suspects: { ids: string[]; expected: Set<string> }; postgres: number }> {
  const expected = new Set<string>();
  const ids: string[] = [];
  for await (const page of familyIdPages(ctx.client, ctx.family, ctx.batchSize)) {
    const findings = await compareIds(ctx, page, (id) => expected.add(id));
    ids.push(...findings.map((f) => f.id));
  }
  return { suspects: { ids, expected }, postgres: expected.size };
}

/** Pass 2: ids of every document in the read alias that PostgreSQL did not build in pass 1. */
async function scanElasticsearch(
  ctx: FamilyContext,
  expected: ReadonlySet<string>,
): Promise<{ extra: string[]; elasticsearch: number }> {
  const pit = await ctx.es.openPointInTime({ index: ctx.index, keep_alive: '2m' });
  const extra: string[] = [];
  let count = 0;
  try {
    let after: unknown[] | undefined;
    for (;;) {
      const res = await ctx.es.search({
        pit: { id: pit.id, keep_alive: '2m' },
        size: ctx.batchSize,
        _source: false,
        sort: [{ _shard_doc: 'asc' }],
        ...(after ? { search_after: after as never } : {}),
      });
      const hits = res.hits.hits;
      if (!hits.length) break;
      count += hits.length;
      for (const hit of hits) if (!expected.has(hit._id!)) extra.push(hit._id!);
      after = hits[hits.length - 1]!.sort;
    }
  } finally {
    await ctx.es.closePointInTime({ id: pit.id }).catch(() => {});
  }
  return { extra, elasticsearch: count };
}

/** Pass 3: suspects read again from both sides; only what still differs is a finding. */
async function recheck(ctx: FamilyContext, ids: string[]): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (let i = 0; i < ids.length; i += ctx.batchSize)
    findings.push(...(await compareIds(ctx, ids.slice(i, i + ctx.batchSize))));
  return findings;
}

/** Builds `ids` from PostgreSQL, multi-gets them from the read alias (realtime) and classifies each difference. */
async function compareIds(ctx: FamilyContext, ids: string[], onExpected?: (id: string) => void): Promise<Finding[]> {
  if (!ids.length) return [];
  const built = await buildDocuments(ctx.client, ctx.family, ids, { chainNames: ctx.chainNames, now: new Date() });
  const res = await ctx.es.mget<Record<string, unknown>>({
    index: ctx.index,
    ids,
    _source_includes: Object.keys(COMPARED_FIELDS[ctx.family]),
  });
  const actual = new Map<string, Record<string, unknown>>();
  for (const doc of res.docs) if ('found' in doc && doc.found) actual.set(doc._id, doc._source ?? {});
  const findings: Finding[] = [];
  for (const { id, document } of built.upserts) {
    onExpected?.(id);
    const found = actual.get(id);
    if (!found) findings.push({ id, kind: 'missing', differences: [] });
    else {
      const differences = compareDocuments(ctx.family, document, found);
      if (differences.length) findings.push({ id, kind: 'stale', differences });
    }
  }
  for (const id of built.deletes) if (actual.has(id)) findings.push({ id, kind: 'extra', differences: [] });
  return findings;
}

/** Ids of the family with an outbox entry waiting (a queued campaign also rebuilds its opportunity). */
async function pendingIds(client: PgClient, family: IndexFamily): Promise<Set<string>> {
  const sql =
    family === 'campaigns'
      ? `SELECT entity_id AS id FROM search_outbox WHERE entity = 'campaign'`
      : `SELECT entity_id AS id FROM search_outbox WHERE entity = 'opportunity'
       UNION SELECT c.opportunity_id FROM campaigns_current c JOIN search_outbox o ON o.entity = 'campaign' AND o.entity_id = c.id WHERE c.opportunity_id IS NOT NULL`;
  const { rows } = await client.query<{ id: string }>(sql);
  return new Set(rows.map((r) => r.id));
}

/** Findings selected by `pick`, grouped by kind, with complete counts and at most `maxIds` listed. */
function toDifferences(findings: Finding[], pick: (id: string) => boolean, maxIds: number): Differences {
  const of = (kind: Finding['kind']) => findings.filter((f) => f.kind === kind && pick(f.id));
  const missing = of('missing');
  const extra = of('extra');
  const stale = of('stale');
  return {
    missing: { count: missing.length, ids: missing.slice(0, maxIds).map((f) => f.id) },
    extra: { count: extra.length, ids: extra.slice(0, maxIds).map((f) => f.id) },
    stale: {
      count: stale.length,
      documents: stale.slice(0, maxIds).map((f) => ({ id: f.id, differences: f.differences })),
    },
  };
}
