import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  buildAggregateQuery,
  buildBinsQuery,
  buildExtremumQuery,
  buildOpportunityListQuery,
} from '../../../../../api/reads/opportunities/query.js';
import type { OppFilters } from '../../../../../api/reads/opportunities/schema.js';

const DIR = fileURLToPath(new URL('../../../../fixtures/api/opportunities/', import.meta.url));
const NOW = 1_700_000_000;
/** Golden bodies; UPDATE_GOLDEN=1 rewrites them after a deliberate change. */
function golden(name: string, actual: unknown): void {
  if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(`${DIR}${name}.json`, `${JSON.stringify(actual, null, 2)}\n`);
  expect(JSON.parse(JSON.stringify(actual))).to.deep.equal(JSON.parse(readFileSync(`${DIR}${name}.json`, 'utf8')));
}

const defaults: OppFilters = {
  page: 0,
  items: 20,
  test: false,
  point: false,
  stablecoin: false,
  campaigns: false,
  excludeSubCampaigns: false,
  withInvalids: false,
  order: 'desc',
};
const every: OppFilters = {
  ...defaults,
  name: 'Crème',
  search: 'ÉTH lp',
  campaignId: '0xABC',
  creatorSlug: 'Acme',
  chainId: '1,10',
  action: 'POOL,LEND',
  tokenTypes: ['TOKEN,PRETGE'],
  type: 'CLAMM',
  creatorAddress: '0xAAAA',
  tags: 'a,b',
  minimumTvl: 1,
  maximumTvl: 2,
  minimumApr: 3,
  maximumApr: 4,
  minimumDailyRewards: 5,
  maximumDailyRewards: 6,
  minimumCreatedAt: 7,
  maximumCreatedAt: 8,
  status: 'LIVE,SOON,PAST',
  identifier: '0xDEF',
  id: '1,2',
  tokens: 'USDC,wETH',
  stablecoin: true,
  rewardTokenSymbol: 'RWD',
  sort: 'rewards',
  order: 'asc',
  distributionTypes: ['FIX_REWARD', 'TOTAL_APR'],
  mainProtocolId: 'uniswap-v3',
  programSlugs: 'p',
  chainName: 'Ethereum',
  explorerAddress: '0xEE',
  campaignTypes: '2,13',
};

describe('api/routes/opportunities/query', () => {
  it('builds the default list query: invalid, point-only and test opportunities hidden, newest first, id tie-breaker', () => {
    golden('list.default', buildOpportunityListQuery(defaults, NOW, { testChainIds: [999] }));
  });

  it('builds a clause for every OPP-FILTERS parameter (folded text, lower-cased keywords, status from windows)', () => {
    golden(
      'list.every-filter',
      buildOpportunityListQuery({ ...every, test: true, point: true, withInvalids: true }, NOW, {
        campaignOpportunityIds: ['9', '10'],
      }),
    );
  });

  it('refuses a campaignId filter whose opportunities were not looked up (never a filter that matches all)', () => {
    expect(() => buildOpportunityListQuery({ ...defaults, campaignId: '0xabc' }, NOW)).to.throw(/campaignId/);
    // No public campaign has the id: a terms clause over no id, which matches nothing.
    const { query } = buildOpportunityListQuery({ ...defaults, campaignId: '0xabc' }, NOW, {
      campaignOpportunityIds: [],
    });
    expect(JSON.stringify(query)).to.include('{"terms":{"id":[]}}');
  });

  it('builds bins, sum, grouped and extremum aggregations over the same filter', () => {
    golden('bins.tvl', buildBinsQuery(defaults, 'tvl', [0, 1, 2, 5], NOW));
    golden('aggregate.tvl', buildAggregateQuery(defaults, 'tvl', NOW));
    golden('aggregate.protocolId', buildAggregateQuery(defaults, 'protocolId', NOW));
    golden('aggregate.max.apr', buildExtremumQuery(defaults, 'max', 'apr', NOW));
  });

  it('sorts on the mapped field with missing values last', () => {
    expect(buildOpportunityListQuery({ ...defaults, sort: 'maxDailyRewards', order: 'asc' }, NOW).sort).to.deep.equal([
      { maxDailyRewards: { order: 'asc', missing: '_last' } },
      { id: { order: 'asc' } },
    ]);
  });
});
