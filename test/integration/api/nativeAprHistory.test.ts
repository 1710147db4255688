import { expect } from 'chai';
import { upsertChains } from '../../../domain/tables/chains.js';
import { indexNames } from '../../../internal/es.js';
import { computeOpportunityMetrics, NO_TVL_READING } from '../../../indexer/transform/computeMetrics.js';
import type { NativeAprReading } from '../../../indexer/transform/nativeApr.js';
import { insertSnapshots } from '../../../indexer/store/metrics.js';
import { withTransaction } from '../../../internal/pg.js';
import { syntheticOpportunityDocument } from '../../fixtures/api/opportunities/syntheticOpportunity.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const NOW = Math.floor(Date.now() / 1000);

/**
 * #42: a history snapshot keeps its native APR's status (opportunity_snapshots.native_apr_status), and
 * /native-apr-records leaves an unknown native APR (stored 0) out of its buckets' time-weighted means,
 * never averaging it as "no yield"; a bucket of unknowns is null.
 */
describe('native-APR history keeps its status: an unknown native APR is never a 0 in the mean (#42)', function () {
  let h: Harness;
  let id: string;

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    await upsertChains(h.deps.pg, h.config.chains);
    const doc = syntheticOpportunityDocument({ i: 1, tvl: 1000, apr: 10, daily: 2, createdAt: NOW - 10 }, NOW);
    id = doc.id;
    const write = indexNames(h.config.esIndexPrefix, 'opportunities').write;
    const res = await h.deps.es.bulk({ refresh: true, operations: [{ index: { _index: write, _id: id } }, doc] });
    expect(res.errors).to.equal(false);
    // Stored as the metrics job stores them (insertSnapshots), one run per time.
    const ok = (apr: number): NativeAprReading => ({ method: 'ERC4626_SHARE_PRICE', status: 'ok', apr });
    const unknown: NativeAprReading = { method: 'UNISWAP_V3_FEES', status: 'no-history', apr: null };
    const runs: [string, NativeAprReading][] = [
      // Day 1: 4 % for 6 h, unknown for 12 h, 10 % for the last 6 h: (4·6 + 10·6) / 12 = 7 (5.25 with the unknown as 0).
      ['2026-01-01T00:00:00Z', ok(4)],
      ['2026-01-01T06:00:00Z', unknown],
      ['2026-01-01T18:00:00Z', ok(10)],
      // Day 2: unknown all day (a stored 0 each): null, not 0.
      ['2026-01-02T00:00:00Z', unknown],
      ['2026-01-02T12:00:00Z', { method: 'NONE', status: 'read-failed', apr: null }],
      // Day 3: a known 0 is a 0.
      ['2026-01-03T00:00:00Z', ok(0)],
    ];
    for (const [iso, native] of runs) {
      const ts = new Date(iso);
      const m = computeOpportunityMetrics(id, [], NO_TVL_READING, ts.getTime() / 1000, native);
      await withTransaction(h.deps.pg, (tx) => insertSnapshots(tx, [], [{ ...m, started: true }], ts));
    }
  });

  after(async () => {
    await h?.close();
  });

  it('stores each snapshot’s native APR with its status (0 when unknown, the status saying so)', async function () {
    const { rows } = await h.deps.pg.query<{ native_apr: number; native_apr_status: string }>(
      'SELECT native_apr, native_apr_status FROM opportunity_snapshots WHERE opportunity_id = $1 ORDER BY ts',
      [id],
    );
    expect(rows.map((r) => [r.native_apr, r.native_apr_status])).to.deep.equal([
      [4, 'ok'],
      [0, 'no-history'],
      [10, 'ok'],
      [0, 'no-history'],
      [0, 'read-failed'],
      [0, 'ok'],
    ]);
  });

  it('serves the time-weighted mean of the known values, null for a bucket of unknowns (CSV: empty), a known 0 as 0', async function () {
    const to = Date.parse('2026-01-03T01:00:00Z') / 1000;
    const records = (
      await h.request().get(`/v4/opportunities/${id}/native-apr-records`).query({ grain: 'day', to }).expect(200)
    ).body as { timestamp: string; apr: number | null }[];
    expect(records.map((r) => [r.timestamp, r.apr])).to.deep.equal([
      ['1767398400', 0],
      ['1767312000', null],
      ['1767225600', 7],
    ]);
    const csv = await h
      .request()
      .get(`/v4/opportunities/${id}/native-apr-records`)
      .query({ grain: 'day', to, format: 'csv' })
      .expect(200);
    expect(csv.text.split('\n')[2]).to.equal('1767312000,2026-01-02T00:00:00.000Z,');
  });

  it('reads a snapshot from before the status was recorded (NULL) as its stored value', async function () {
    await h.deps.pg.query(
      `INSERT INTO opportunity_snapshots (opportunity_id, ts, apr, tvl, native_apr, daily_rewards)
       VALUES ($1, '2025-06-01T00:00:00Z', 0, 0, 3, 0)`,
      [id],
    );
    const to = Date.parse('2025-06-01T12:00:00Z') / 1000;
    const records = (
      await h.request().get(`/v4/opportunities/${id}/native-apr-records`).query({ grain: 'day', to }).expect(200)
    ).body as { timestamp: string; apr: number | null }[];
    expect(records.map((r) => [r.timestamp, r.apr])).to.deep.equal([['1748736000', 3]]);
  });
});
