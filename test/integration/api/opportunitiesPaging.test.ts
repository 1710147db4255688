import { expect } from 'chai';
import supertest from 'supertest';
import { upsertChains } from '../../../domain/tables/chains.js';
import { indexNames } from '../../../internal/es.js';
import { createLogger } from '../../../internal/logger.js';
import { syntheticOpportunityDocument } from '../../fixtures/api/opportunities/syntheticOpportunity.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const NOW = 2_000_000_000;
const TOTAL = 10_250;

describe('GET /v4/opportunities paging past 10,000 hits', function () {
  let h: Harness;
  let request: () => ReturnType<typeof supertest>;
  let expected: string[];

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    await upsertChains(h.deps.pg, h.config.chains);
    request = () =>
      supertest(
        h
          .createApp({
            logger: createLogger({ level: 'silent', name: 'test' }),
            now: () => NOW,
          })
          .callback(),
      );
    const write = indexNames(h.config.esIndexPrefix, 'opportunities').write;
    // Many ties on tvl (i % 7) so the id tie-breaker decides most of the order.
    const docs = Array.from({ length: TOTAL }, (_, i) =>
      syntheticOpportunityDocument({ i: i + 1, symbol: `T${i}`, tvl: (i % 7) * 10, createdAt: NOW - 10_000 + i }, NOW),
    );
    for (let k = 0; k < docs.length; k += 2500) {
      const res = await h.deps.es.bulk({
        operations: docs.slice(k, k + 2500).flatMap((d) => [{ index: { _index: write, _id: d.id } }, d]),
      });
      expect(res.errors).to.equal(false);
    }
    await h.refresh();
    // Direct sorted read of every id (search_after walk), the reference order.
    const read = indexNames(h.config.esIndexPrefix, 'opportunities').read;
    expected = [];
    let after: unknown[] | undefined;
    for (;;) {
      const res = await h.deps.es.search<{ id: string }>({
        index: read,
        size: 5000,
        _source: ['id'],
        sort: [{ tvl: { order: 'asc' } }, { id: { order: 'asc' } }],
        ...(after ? { search_after: after as never } : {}),
      });
      if (!res.hits.hits.length) break;
      expected.push(...res.hits.hits.map((x) => x._source!.id));
      after = res.hits.hits[res.hits.hits.length - 1]!.sort;
    }
    expect(expected).to.have.length(TOTAL);
  });

  after(async () => {
    await h?.close();
  });

  it('serves deep pages (page 99–102 with items=100) continuous, unique and equal to a direct sorted read', async function () {
    const pages: string[][] = [];
    for (const page of [99, 100, 101, 102]) {
      const res = await request()
        .get('/v4/opportunities')
        .query({ sort: 'tvl', order: 'asc', items: 100, page })
        .expect(200);
      pages.push(res.body.map((o: { id: string }) => o.id));
    }
    const seen = pages.flat();
    expect(new Set(seen).size).to.equal(seen.length);
    expect(pages.map((p) => p.length)).to.deep.equal([100, 100, 100, 50]);
    expect(seen).to.deep.equal(expected.slice(9900, TOTAL));
    expect(
      (await request().get('/v4/opportunities').query({ sort: 'tvl', order: 'asc', items: 100, page: 103 }).expect(200))
        .body,
    ).to.deep.equal([]);
  });

  it('counts past 10,000 exactly', async function () {
    expect((await request().get('/v4/opportunities/count').expect(200)).body).to.equal(TOTAL);
  });

  it('rejects items above 100', async function () {
    expect((await request().get('/v4/opportunities').query({ items: 101 }).expect(400)).body.errors[0].field).to.equal(
      'items',
    );
  });
});
