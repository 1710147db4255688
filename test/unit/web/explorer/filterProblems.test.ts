import { expect } from 'chai';
import { apiFieldProblems, filterProblems, rangeProblems } from '../../../../web/explorer/filterProblems.js';
import { parseState } from '../../../../web/explorer/state.js';

describe('web/explorer/filterProblems', () => {
  it('names each ignored address value in plain words (no validator text), and parseState drops exactly those', () => {
    const search = '?chainId=abc,1&minimumTvl=xyz&sort=bogus&action=POOL,NOPE&page=-3';
    const problems = filterProblems(search);
    expect(problems.map((p) => p.keys)).to.deep.equal([['minimumTvl'], ['chainId'], ['action'], ['sort'], ['page']]);
    expect(problems[0]!.message).to.equal('Minimum TVL “xyz” is not a number, so it was ignored.');
    expect(problems[1]!.message).to.equal('Chains: “abc” is not a chain id (a whole number), so it was ignored.');
    expect(problems.map((p) => p.message).join(' ')).to.not.match(/\^|\\d|pattern|must match/);
    const state = parseState(search);
    expect(state.filters).to.deep.equal({ chainId: '1', action: 'POOL' });
    expect(state.sort).to.equal('lastCampaignCreatedAt');
  });

  it('finds nothing in a valid address', () => {
    expect(
      filterProblems('?chainId=1,10&status=LIVE&minimumApr=5&sort=apr&order=asc&items=50&page=2&search=eth'),
    ).to.deep.equal([]);
  });

  it('warns of a minimum above its maximum (nothing can match), per range', () => {
    const problems = rangeProblems(parseState('?minimumApr=50&maximumApr=10&minimumTvl=1&maximumTvl=2'));
    expect(problems.map((p) => [p.metric, p.keys])).to.deep.equal([['Apr', ['minimumApr', 'maximumApr']]]);
    expect(problems[0]!.message).to.equal('The minimum APR (50) is above the maximum (10): no opportunity can match.');
  });

  it("turns a 400 answer's field errors into the filter's plain name", () => {
    expect(apiFieldProblems([{ field: 'chainId', message: 'must match pattern "^\\d+$"' }])).to.deep.equal([
      { keys: ['chainId'], message: 'The Chains filter has a value the service does not accept.' },
    ]);
  });
});
