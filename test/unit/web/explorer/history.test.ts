import { expect } from 'chai';
import { campaignStatusAt } from '../../../../web/explorer/history.js';

describe('web/explorer/history', () => {
  it('tells a campaign window LIVE, SOON or PAST (end exclusive)', () => {
    expect(campaignStatusAt(10, 20, 5)).to.equal('SOON');
    expect(campaignStatusAt(10, 20, 10)).to.equal('LIVE');
    expect(campaignStatusAt(10, 20, 20)).to.equal('PAST');
  });
});
