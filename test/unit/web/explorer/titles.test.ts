import { expect } from 'chai';
import { DEFAULT_STATE, parseState } from '../../../../web/explorer/state.js';
import { filterSummary, searchTitle } from '../../../../web/explorer/titles.js';

const chains = [{ id: 1, name: 'Ethereum' }];
const protocols = [{ id: 'uniswap-v4', name: 'Uniswap V4' }];

describe('web/explorer/titles', () => {
  it('summarises the filter in words: names for ids, the search quoted, ranges with units', () => {
    const state = parseState(
      '?status=LIVE&action=POOL,LEND&chainId=1,10&mainProtocolId=uniswap-v4&search=eth&minimumApr=5&minimumTvl=1000&maximumTvl=5000&maximumDailyRewards=10',
    );
    expect(filterSummary(state, chains, protocols)).to.equal(
      'LIVE · POOL, LEND · Ethereum, 10 · Uniswap V4 · “eth” · TVL $1000–$5000 · APR ≥ 5% · daily rewards ≤ $10',
    );
    expect(filterSummary(DEFAULT_STATE, chains, protocols)).to.equal('');
  });

  it('names programs by their name in the summary and the title', () => {
    const programs = [{ id: 'p1', slug: 'arb-ltipp', name: 'Arbitrum LTIPP' }];
    const state = parseState('?programSlugs=arb-ltipp,unknown-one&status=LIVE');
    expect(filterSummary(state, chains, protocols, programs)).to.equal('LIVE · Arbitrum LTIPP, unknown-one');
    expect(searchTitle(state, 2, chains, protocols, programs)).to.equal(
      '2 opportunities: LIVE · Arbitrum LTIPP, unknown-one – Campaign rewards explorer',
    );
  });

  it('titles the search with the count in the right number, the filter and the page', () => {
    expect(searchTitle(DEFAULT_STATE, null, chains, protocols)).to.equal('Opportunities – Campaign rewards explorer');
    expect(searchTitle(DEFAULT_STATE, 1, chains, protocols)).to.equal('1 opportunity – Campaign rewards explorer');
    expect(searchTitle(parseState('?status=PAST&page=2'), 1234, chains, protocols)).to.equal(
      '1,234 opportunities: PAST (page 3) – Campaign rewards explorer',
    );
    expect(searchTitle(parseState('?search=zz'), 0, chains, protocols)).to.equal(
      '0 opportunities: “zz” – Campaign rewards explorer',
    );
  });
});
