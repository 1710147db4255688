import { expect } from 'chai';
import {
  DEFAULT_STATE,
  filterQuery,
  listQuery,
  narrowToBin,
  parseState,
  toggleListValue,
  toSearch,
  withFilters,
} from '../../../../web/explorer/state.js';

describe('web/explorer/state', () => {
  it('round-trips a whole view through the URL query', () => {
    const search =
      '?chainId=31337%2C1&action=POOL&minimumTvl=1000&search=eth&sort=apr&order=asc&page=2&items=50&opportunity=123&grain=week';
    const state = parseState(search);
    expect(state).to.deep.equal({
      filters: { chainId: '31337,1', action: 'POOL', minimumTvl: '1000', search: 'eth' },
      sort: 'apr',
      order: 'asc',
      page: 2,
      items: 50,
      opportunity: '123',
      grain: 'week',
    });
    expect(parseState(toSearch(state))).to.deep.equal(state);
  });

  it('round-trips the analytics view and its stacking, leaving out unknown values', () => {
    const state = parseState('?view=analytics&stack=protocol');
    expect(state).to.deep.equal({ ...DEFAULT_STATE, view: 'analytics', stack: 'protocol' });
    expect(toSearch(state)).to.equal('?view=analytics&stack=protocol');
    expect(parseState('?view=charts&stack=type')).to.deep.equal(DEFAULT_STATE);
  });

  it('leaves defaults out of the URL and falls back to them for unknown or malformed values', () => {
    expect(toSearch(DEFAULT_STATE)).to.equal('');
    expect(parseState('?sort=nope&order=up&page=-1&items=7&grain=year&minimumApr=abc&unknown=1')).to.deep.equal(
      DEFAULT_STATE,
    );
  });

  it('sends the filter as OPP-FILTERS, and the list query adds sort, order and paging', () => {
    const state = parseState('?status=LIVE&maximumApr=20&page=1');
    expect(filterQuery(state)).to.deep.equal({ status: 'LIVE', maximumApr: '20' });
    expect(listQuery(state)).to.deep.equal({
      status: 'LIVE',
      maximumApr: '20',
      sort: 'lastCampaignCreatedAt',
      order: 'desc',
      page: 1,
      items: 20,
    });
  });

  it('goes back to the first page on any filter change and drops emptied filters', () => {
    const state = { ...DEFAULT_STATE, page: 3, filters: { search: 'x' } };
    expect(withFilters(state, { search: ' ', tokens: 'USDC' })).to.deep.include({
      page: 0,
      filters: { tokens: 'USDC' },
    });
  });

  it('toggles one value of a comma-list filter', () => {
    const once = toggleListValue(DEFAULT_STATE, 'action', 'POOL');
    const twice = toggleListValue(once, 'action', 'LEND');
    expect(twice.filters.action).to.equal('POOL,LEND');
    expect(toggleListValue(toggleListValue(twice, 'action', 'POOL'), 'action', 'LEND').filters).to.deep.equal({});
  });

  it('narrows a range to a histogram bar, keeping the open side of the first and last bins as filtered', () => {
    const bins = [
      { min: 0, max: 10, count: 1 },
      { min: 10, max: 20, count: 2 },
      { min: 20, max: 30, count: 3 },
    ];
    const state = { ...DEFAULT_STATE, filters: { minimumApr: '5' } };
    expect(narrowToBin(state, 'Apr', bins, 1).filters).to.deep.equal({ minimumApr: '10', maximumApr: '20' });
    expect(narrowToBin(state, 'Apr', bins, 0).filters).to.deep.equal({ minimumApr: '5', maximumApr: '10' });
    expect(narrowToBin(DEFAULT_STATE, 'Tvl', bins, 2).filters).to.deep.equal({ minimumTvl: '20' });
  });
});
