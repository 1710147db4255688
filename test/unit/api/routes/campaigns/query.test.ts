import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { toListParams, type CampaignListParams } from '../../../../../api/reads/campaigns/params.js';
import {
  buildByIdQuery,
  buildListQuery,
  buildOpportunitiesQuery,
  searchClause,
  statusClause,
} from '../../../../../api/reads/campaigns/query.js';
import type { ListCampaignsQuery } from '../../../../../api/reads/campaigns/schema.js';
import { LIST_CASES } from '../../../../fixtures/api/campaigns/listCases.js';

/** The `now` every golden body was written with. */
const NOW = 1_700_000_000;

function golden(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`../../../../fixtures/api/campaigns/${name}.json`, import.meta.url), 'utf8'));
}

/** Validated query (as ajv leaves it, defaults applied) → normalized params. */
function params(q: Partial<ListCampaignsQuery>): CampaignListParams {
  const r = toListParams({
    page: 0,
    items: 20,
    test: false,
    withOpportunity: false,
    excludeSubCampaigns: false,
    onlySubCampaigns: false,
    showPrivate: false,
    ...q,
  });
  if ('errors' in r) throw new Error(JSON.stringify(r.errors));
  return r.params;
}

const A = `0x${'aa'.repeat(20)}` as const;
const H = `0x${'ab'.repeat(32)}` as const;

describe('api/routes/campaigns/query', () => {
  describe('buildListQuery', () => {
    for (const { fixture, query, listIds } of LIST_CASES) {
      it(`builds the golden body ${fixture}.json for ${JSON.stringify(query)}`, () => {
        expect(buildListQuery(params(query), NOW, listIds)).to.deep.equal(golden(fixture));
      });
    }

    it('offsets by page × items', () => {
      expect(buildListQuery(params({ page: 4, items: 25 }), NOW)).to.include({ from: 100, size: 25 });
    });

    it('builds one clause per distinct status', () => {
      expect(buildListQuery(params({ status: 'LIVE,LIVE' }), NOW)).to.deep.equal(golden('list.status-live'));
    });

    it('sorts newest first with the id as tie-breaker', () => {
      expect(buildListQuery(params({}), NOW).sort).to.deep.equal([{ createdAt: 'desc' }, { id: 'asc' }]);
    });

    it('never lists private campaigns, and hides test-token and hidden campaigns unless test=true', () => {
      expect(buildListQuery(params({}), NOW).query.bool.must_not).to.deep.equal([
        { term: { isPrivate: true } },
        { term: { 'rewardToken.isTest': true } },
        { term: { hidden: true } },
      ]);
      expect(buildListQuery(params({ test: true, showPrivate: true }), NOW).query.bool.must_not).to.deep.equal([
        { term: { isPrivate: true } },
      ]);
    });

    it('matches nothing for campaign lists that resolved to no ids', () => {
      expect(buildListQuery(params({ listOwner: A, campaignLists: 'none' }), NOW, []).query.bool.filter).to.deep.equal([
        { terms: { id: [] } },
      ]);
    });
  });

  describe('searchClause', () => {
    it('folds case and accents the way documents are folded, every word a prefix', () => {
      expect(searchClause('CRÈME  Brû, crème')).to.deep.equal({
        bool: { filter: [{ prefix: { searchText: 'creme' } }, { prefix: { searchText: 'bru' } }] },
      });
    });

    it('matches nothing for a query without words', () => {
      expect(searchClause(' ,; ')).to.deep.equal({ match_none: {} });
    });

    it("lets each word match the campaign's text or the opportunities it names (issue 31)", () => {
      expect(searchClause('Supply sUSDx', [['1', '2'], []])).to.deep.equal({
        bool: {
          filter: [
            {
              bool: {
                should: [{ prefix: { searchText: 'supply' } }, { terms: { opportunityId: ['1', '2'] } }],
                minimum_should_match: 1,
              },
            },
            { prefix: { searchText: 'susdx' } },
          ],
        },
      });
    });
  });

  describe('buildByIdQuery', () => {
    it('looks an internal id up by id', () => {
      expect(buildByIdQuery('123')).to.deep.equal(golden('by-id.internal'));
    });

    it('looks a composite id up by distribution chain and lower-cased on-chain id', () => {
      expect(buildByIdQuery(`31337-${H.replace('ab', 'AB')}`)).to.deep.equal(golden('by-id.composite'));
    });
  });

  describe('buildOpportunitiesQuery', () => {
    it('asks one terms query for the distinct opportunities of a page, light fields only', () => {
      expect(buildOpportunitiesQuery(['1', '2', '1'])).to.deep.equal(golden('opportunities.light'));
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
