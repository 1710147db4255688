import { expect } from 'chai';
import type { FilteredRow } from '../../../../../api/reads/reward-totals/distributed.js';
import { topDistributedOpportunities } from '../../../../../api/reads/reward-totals/topOpportunities.js';

const row = (campaignId: string, opportunityId: string | null, usd: number, token = '0xt'): FilteredRow => ({
  chainId: 1,
  campaignId,
  token,
  period: null,
  amount: '1',
  usd,
  unpriced: false,
  campaign: { distributionChainId: 1, type: 'ERC20', mainProtocolId: null, opportunityId },
});

describe('api/routes/reward-totals/topOpportunities topDistributedOpportunities', () => {
  it('sums USD per opportunity over its campaigns and tokens, largest first, ties by id, cut to items', () => {
    const rows = [
      row('0xa', 'o1', 5),
      row('0xa', 'o1', 1, '0xu'),
      row('0xb', 'o1', 2),
      row('0xc', 'o2', 8),
      row('0xd', 'o0', 8),
      row('0xe', 'o3', 0.5),
    ];
    expect(topDistributedOpportunities(rows, 3)).to.deep.equal([
      { opportunityId: 'o0', usd: 8, campaigns: 1 },
      { opportunityId: 'o1', usd: 8, campaigns: 2 },
      { opportunityId: 'o2', usd: 8, campaigns: 1 },
    ]);
  });

  it('leaves out campaigns without an opportunity', () => {
    expect(topDistributedOpportunities([row('0xa', null, 9), row('0xb', 'o1', 1)], 10)).to.deep.equal([
      { opportunityId: 'o1', usd: 1, campaigns: 1 },
    ]);
  });
});
