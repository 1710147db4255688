import { expect } from 'chai';
import { upsertChains } from '../../../domain/tables/chains.js';
import type { OpportunityDocument } from '../../../domain/documents/opportunityDocument.js';
import { indexNames } from '../../../internal/es.js';
import { syntheticOpportunityDocument } from '../../fixtures/api/opportunities/syntheticOpportunity.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const NOW = Math.floor(Date.now() / 1000);

/**
 * #42: an opportunity whose TVL cannot be known holds a null tvl and apr in its document, so no TVL
 * or APR filter, bin, sum, min or max counts it as 0; the Opportunity record serves the contract's
 * numbers (0) with tvlRecord.status naming the reason; history and /v4/health say so too.
 */
describe('an unknown TVL is never counted as 0 (#42)', function () {
  let h: Harness;
  const docs: Record<string, OpportunityDocument> = {};
  const ids = (...names: string[]) => names.map((n) => docs[n]!.id);

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    await upsertChains(h.deps.pg, h.config.chains);
    const d = (o: Parameters<typeof syntheticOpportunityDocument>[0]) => syntheticOpportunityDocument(o, NOW);
    docs['BIG'] = d({ i: 1, tvl: 1000, apr: 10, daily: 2, createdAt: NOW - 10 });
    docs['SMALL'] = d({ i: 2, tvl: 50, apr: 5, daily: 1, createdAt: NOW - 20 });
    docs['UNKNOWN'] = d({ i: 3, tvl: null, tvlStatus: 'read-failed', daily: 7, createdAt: NOW - 30 });
    const write = indexNames(h.config.esIndexPrefix, 'opportunities').write;
    const res = await h.deps.es.bulk({
      refresh: true,
      operations: Object.values(docs).flatMap((doc) => [{ index: { _index: write, _id: doc.id } }, doc]),
    });
    expect(res.errors).to.equal(false);
  });

  after(async () => {
    await h?.close();
  });

  const list = async (query: Record<string, string | number>) =>
    ((await h.request().get('/v4/opportunities').query(query).expect(200)).body as { id: string }[]).map((o) => o.id);

  it('the record serves the contract numbers (0) and says why in tvlRecord.status; the document holds null', async function () {
    const served = (await h.request().get(`/v4/opportunities/${docs['UNKNOWN']!.id}`).expect(200)).body;
    expect([served.tvl, served.apr, served.totalApr, served.dailyRewards]).to.deep.equal([0, 0, 0, 7]);
    expect(served.tvlRecord).to.include({ total: 0, status: 'read-failed' });
    const known = (await h.request().get(`/v4/opportunities/${docs['BIG']!.id}`).expect(200)).body;
    expect(known.tvlRecord.status).to.equal('ok');
    expect([docs['UNKNOWN']!.tvl, docs['UNKNOWN']!.apr]).to.deep.equal([null, null]);
  });

  it('GraphQL serves the same record and names the status in tvlStatus', async function () {
    const res = await h
      .request()
      .post('/graphql/v1')
      .set('accept', 'application/graphql-response+json')
      .send({
        query: `query ($a: ID!, $b: ID!) { u: opportunity(id: $a) { tvl apr tvlStatus } k: opportunity(id: $b) { tvl tvlStatus } }`,
        variables: { a: docs['UNKNOWN']!.id, b: docs['BIG']!.id },
      });
    const body = JSON.parse(res.text);
    expect(body.errors).to.equal(undefined);
    expect(body.data).to.deep.equal({
      u: { tvl: 0, apr: 0, tvlStatus: 'read-failed' },
      k: { tvl: 1000, tvlStatus: 'ok' },
    });
  });

  it('matches no TVL filter: not maximumTvl (as if 0), not minimumTvl=0', async function () {
    expect(await list({ maximumTvl: 100 })).to.deep.equal(ids('SMALL'));
    expect(await list({ minimumTvl: 0 })).to.deep.equal(ids('BIG', 'SMALL'));
    expect(await list({ maximumApr: 7 })).to.deep.equal(ids('SMALL'));
    expect(await list({})).to.deep.equal(ids('BIG', 'SMALL', 'UNKNOWN'));
  });

  it('sorts last on tvl and apr, ascending or descending', async function () {
    expect(await list({ sort: 'tvl', order: 'asc' })).to.deep.equal(ids('SMALL', 'BIG', 'UNKNOWN'));
    expect(await list({ sort: 'tvl', order: 'desc' })).to.deep.equal(ids('BIG', 'SMALL', 'UNKNOWN'));
    expect(await list({ sort: 'apr', order: 'asc' })).to.deep.equal(ids('SMALL', 'BIG', 'UNKNOWN'));
  });

  it('is in no TVL or APR bin, sum, min or max (the count and daily rewards still include it)', async function () {
    const get = async (path: string) => (await h.request().get(`/v4/opportunities${path}`).expect(200)).body;
    const tvlBins = (await get('/bins/tvl')).data as { count: number }[];
    expect(tvlBins.reduce((n, b) => n + b.count, 0)).to.equal(2);
    expect(((await get('/bins/apr')).data as { count: number }[]).reduce((n, b) => n + b.count, 0)).to.equal(2);
    expect(
      (await get('/bins/daily-rewards')).data.reduce((n: number, b: { count: number }) => n + b.count, 0),
    ).to.equal(3);
    expect(await get('/aggregate/tvl')).to.deep.equal({ sum: '1050' });
    expect(await get('/aggregate/min/tvl')).to.deep.equal({ min: '50' });
    expect(await get('/aggregate/min/apr')).to.deep.equal({ min: '5' });
    expect(await get('/aggregate/dailyRewards')).to.deep.equal({ sum: '10' });
    expect(await get('/count')).to.equal(3);
    const summary = await get('/summary');
    expect(summary).to.include({ count: 3, tvl: '1050' });
  });

  it('history: an unknown snapshot weighs nothing in a bucket, and a bucket of unknowns is null (CSV: empty)', async function () {
    const id = docs['UNKNOWN']!.id;
    const at = (iso: string) => new Date(iso);
    await h.deps.pg.query(
      `INSERT INTO opportunity_snapshots (opportunity_id, ts, apr, tvl, native_apr, daily_rewards)
       SELECT $1, * FROM unnest($2::timestamptz[], $3::float8[], $4::float8[], $5::float8[], $6::float8[])`,
      [
        id,
        [at('2026-01-01T00:00:00Z'), at('2026-01-01T12:00:00Z'), at('2026-01-02T00:00:00Z')],
        [10, null, null],
        [100, null, null],
        [0, 0, 0],
        [1, 1, 1],
      ],
    );
    const records = (
      await h.request().get(`/v4/opportunities/${id}/tvl-records`).query({ grain: 'day', to: 1767312000 }).expect(200)
    ).body as { timestamp: string; tvl: number | null }[];
    // Day 1: 100 for 12 known hours, unknown for the other 12: 100 (was 50 with the unknown as 0).
    expect(records.map((r) => [r.timestamp, r.tvl])).to.deep.equal([
      ['1767312000', null],
      ['1767225600', 100],
    ]);
    const csv = await h
      .request()
      .get(`/v4/opportunities/${id}/tvl-records`)
      .query({ grain: 'day', to: 1767312000, format: 'csv' })
      .expect(200);
    expect(csv.text.split('\n')[1]).to.equal('1767312000,2026-01-02T00:00:00.000Z,');
  });

  it('GET /v4/health counts the opportunities with a LIVE campaign whose TVL is unknown, per reason', async function () {
    await h.deps.pg.query(
      `INSERT INTO opportunity_metrics (opportunity_id, computed_at, tvl, apr, daily_rewards, records, inputs, live_campaigns, tvl_status)
       SELECT id, now(), NULL, NULL, 0, '{}', '{}', live, status FROM unnest($1::text[], $2::int[], $3::text[]) AS i(id, live, status)`,
      [
        ['o1', 'o2', 'o3', 'o4', 'o5'],
        [1, 2, 1, 1, 0],
        ['read-failed', 'read-failed', 'unsupported-target', 'ok', 'unpriced'],
      ],
    );
    const body = (await h.request().get('/v4/health')).body;
    expect(body.unknownTvl).to.deep.equal({
      opportunities: 3,
      byStatus: [
        { status: 'read-failed', opportunities: 2 },
        { status: 'unsupported-target', opportunities: 1 },
      ],
    });
  });
});
