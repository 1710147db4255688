import type { Client } from '@elastic/elasticsearch';
import { expect } from 'chai';
import { indexNames } from '../../internal/es.js';
import type { Harness } from './harness.js';

/** Documents per page of the walk (Elasticsearch's default result window is 10,000). */
const PAGE = 5_000;

/**
 * Every document id of `index`, however many: the index's count, then every page of one point in
 * time sorted by `_shard_doc` (search_after), checked against that count. A search with `size`
 * alone stops at its size (a 1,000-document check can neither pass nor show a loss past it).
 */
export async function allDocumentIds(es: Client, index: string): Promise<string[]> {
  const { count } = await es.count({ index });
  const pit = await es.openPointInTime({ index, keep_alive: '1m' });
  const ids: string[] = [];
  try {
    let after: (string | number)[] | undefined;
    for (;;) {
      const res = await es.search({
        size: PAGE,
        _source: false,
        pit: { id: pit.id, keep_alive: '1m' },
        sort: [{ _shard_doc: 'asc' }],
        track_total_hits: false,
        ...(after ? { search_after: after } : {}),
      });
      for (const hit of res.hits.hits) ids.push(hit._id!);
      if (res.hits.hits.length < PAGE) break;
      after = res.hits.hits.at(-1)!.sort as (string | number)[];
    }
  } finally {
    await es.closePointInTime({ id: pit.id });
  }
  expect(ids.length, `${index}: the walk read every counted document`).to.equal(count);
  return ids;
}

/**
 * Asserts that two id sets are equal, naming up to 20 missing and extra ids (a deep equality of
 * two large arrays prints nothing useful), and says how many it compared.
 * @returns the number of ids compared.
 */
export function expectSameIds(what: string, served: readonly string[], truth: readonly string[]): number {
  const have = new Set(served);
  const want = new Set(truth);
  const missing = [...want].filter((id) => !have.has(id));
  const extra = [...have].filter((id) => !want.has(id));
  const message = `${what}: ${served.length} served, ${truth.length} in the truth; missing ${missing.length} (${missing.slice(0, 20).join(', ')}), extra ${extra.length} (${extra.slice(0, 20).join(', ')}), duplicates ${served.length - have.size}`;
  expect(
    { missing: missing.length, extra: extra.length, duplicates: served.length - have.size },
    message,
  ).to.deep.equal({
    missing: 0,
    extra: 0,
    duplicates: 0,
  });
  console.log(`[consistency] ${what}: compared ${truth.length} ids, none missing or extra`);
  return truth.length;
}

/**
 * Elasticsearch equals PostgreSQL, whole sets at any size: every campaign document is a campaign row
 * and back, every opportunity document an opportunity of a current campaign and back (the chaos
 * checks' final comparison).
 */
export async function expectSearchLikePostgres(h: Pick<Harness, 'deps' | 'config' | 'apiPg'>): Promise<void> {
  const esIds = (family: 'campaigns' | 'opportunities') =>
    allDocumentIds(h.deps.es, indexNames(h.config.esIndexPrefix, family).read);
  const pgIds = async (query: string) => (await h.apiPg.query<{ id: string }>(query)).rows.map((r) => r.id);
  expectSameIds(
    'campaign documents = campaign rows',
    await esIds('campaigns'),
    await pgIds('SELECT id FROM campaigns'),
  );
  expectSameIds(
    'opportunity documents = opportunities of campaigns',
    await esIds('opportunities'),
    await pgIds('SELECT DISTINCT opportunity_id AS id FROM campaigns_current'),
  );
}
