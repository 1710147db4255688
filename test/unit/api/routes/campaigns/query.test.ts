import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { buildListQuery, statusClause } from '../../../../../api/routes/campaigns/query.js';
import type { ListCampaignsQuery } from '../../../../../api/routes/campaigns/schema.js';

/** The `now` every golden body was written with. */
const NOW = 1_700_000_000;

function golden(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`../../../../fixtures/api/campaigns/${name}.json`, import.meta.url), 'utf8'));
}

const CASES: { name: string; fixture: string; query: ListCampaignsQuery }[] = [
  { name: 'no filters', fixture: 'list.no-filters', query: { page: 0, items: 20 } },
  { name: 'chainId', fixture: 'list.chain-id', query: { page: 0, items: 20, chainId: 31337 } },
  { name: 'status=LIVE', fixture: 'list.status-live', query: { page: 0, items: 20, status: 'LIVE' } },
  { name: 'status=SOON,PAST', fixture: 'list.status-soon-past', query: { page: 0, items: 20, status: 'SOON,PAST' } },
  { name: 'page=3&items=50', fixture: 'list.page-3-items-50', query: { page: 3, items: 50 } },
  { name: 'chainId with status=PAST on page 1', fixture: 'list.chain-id-status-past', query: { page: 1, items: 10, chainId: 31338, status: 'PAST' } },
];

describe('api/routes/campaigns/query', () => {
  describe('buildListQuery', () => {
    for (const { name, fixture, query } of CASES) {
      it(`builds the golden body for ${name} (${fixture}.json)`, () => {
        expect(buildListQuery(query, NOW)).to.deep.equal(golden(fixture));
      });
    }

    it('offsets by page × items', () => {
      const body = buildListQuery({ page: 4, items: 25 }, NOW);
      expect(body).to.include({ from: 100, size: 25 });
    });

    it('builds one clause per distinct status', () => {
      expect(buildListQuery({ page: 0, items: 20, status: 'LIVE,LIVE' }, NOW)).to.deep.equal(golden('list.status-live'));
    });

    it('sorts newest first with the id as tie-breaker', () => {
      expect(buildListQuery({ page: 0, items: 20 }, NOW).sort).to.deep.equal([{ createdAt: 'desc' }, { id: 'asc' }]);
    });
  });

  describe('statusClause', () => {
    it('SOON: not started yet (start > now)', () => {
      expect(statusClause('SOON', NOW)).to.deep.equal({ range: { startTimestamp: { gt: NOW } } });
    });

    it('PAST: ended (end ≤ now)', () => {
      expect(statusClause('PAST', NOW)).to.deep.equal({ range: { endTimestamp: { lte: NOW } } });
    });

    it('LIVE: started and not ended (start ≤ now < end)', () => {
      expect(statusClause('LIVE', NOW)).to.deep.equal({
        bool: { filter: [{ range: { startTimestamp: { lte: NOW } } }, { range: { endTimestamp: { gt: NOW } } }] },
      });
    });
  });
});
