import { expect } from 'chai';
import type { ConsistencyReport, Differences } from '../../../../indexer/project/consistency.js';
import { formatConsistencyReport } from '../../../../jobs/commands/check.js';

const none: Differences = {
  missing: { count: 0, ids: [] },
  extra: { count: 0, ids: [] },
  stale: { count: 0, documents: [] },
};

describe('jobs/commands/check', () => {
  describe('formatConsistencyReport', () => {
    it('summarizes a consistent report in one line per family and a verdict', () => {
      const report: ConsistencyReport = {
        ok: true,
        checkedAt: '',
        durationMs: 1234,
        outboxDepth: 0,
        families: [
          { family: 'campaigns', index: 'p-campaigns', postgres: 3, elasticsearch: 3, ...none, pending: none },
        ],
      };
      expect(formatConsistencyReport(report)).to.deep.equal([
        'campaigns: postgres 3, elasticsearch 3, missing 0, extra 0, stale 0, pending 0',
        'outbox depth 0; checked in 1.2s',
        'OK: PostgreSQL and Elasticsearch agree',
      ]);
    });

    it('lists differences (capped, with the rest counted) and pending ones apart', () => {
      const ids = Array.from({ length: 12 }, (_, i) => `m${i}`);
      const report: ConsistencyReport = {
        ok: false,
        checkedAt: '',
        durationMs: 0,
        outboxDepth: 1,
        families: [
          {
            family: 'campaigns',
            index: 'p-campaigns',
            postgres: 20,
            elasticsearch: 9,
            missing: { count: 12, ids },
            extra: { count: 1, ids: ['ghost'] },
            stale: {
              count: 1,
              documents: [{ id: 's1', differences: [{ field: 'amount', expected: '2', actual: '1' }] }],
            },
            pending: {
              ...none,
              stale: {
                count: 1,
                documents: [{ id: 'p1', differences: [{ field: 'endTimestamp', expected: 2, actual: 1 }] }],
              },
            },
          },
        ],
      };
      expect(formatConsistencyReport(report)).to.deep.equal([
        'campaigns: postgres 20, elasticsearch 9, missing 12, extra 1, stale 1, pending 1',
        '  missing in Elasticsearch: m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, … (2 more)',
        '  not in PostgreSQL: ghost',
        '  stale s1: amount "1" ≠ "2"',
        '  pending (outbox entries waiting; not a failure):',
        '    stale p1: endTimestamp 1 ≠ 2',
        'outbox depth 1; checked in 0.0s',
        'NOT OK: PostgreSQL and Elasticsearch differ (`reindex` rebuilds a family from PostgreSQL)',
      ]);
    });
  });
});
