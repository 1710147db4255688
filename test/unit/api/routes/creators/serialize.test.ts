import { expect } from 'chai';
import { buildCreatorCampaignsQuery, creatorStatusClause } from '../../../../../api/routes/creators/query.js';
import { serializeCreator, serializeDashboard } from '../../../../../api/routes/creators/serialize.js';
import type { CreatorRecord } from '../../../../../api/reads/creators.js';

const creator: CreatorRecord = {
  id: 'acme',
  name: 'Acme',
  icon: null,
  rebateFee: 1.5,
  addresses: ['0xaa'],
  tags: ['x'],
  registered: true,
};
const row = { past: 1, live: 2, future: 3, total: 6, total_tvl: 10.5, total_wallets: 4 };

describe('api/routes/creators', () => {
  it('serializeCreator names every Creator field and drops internal ones', () => {
    expect(serializeCreator(creator)).to.deep.equal({
      id: 'acme',
      name: 'Acme',
      icon: null,
      rebateFee: 1.5,
      addresses: ['0xaa'],
      tags: ['x'],
    });
  });

  it('serializeDashboard names every dashboard field; creatorId null for an implicit creator', () => {
    expect(serializeDashboard(row, 7, creator)).to.deep.equal({
      pastCampaigns: 1,
      liveCampaigns: 2,
      futureCampaigns: 3,
      totalTvl: 10.5,
      totalWallets: 4,
      totalCampaigns: 6,
      totalDistributed: 7,
      creatorId: 'acme',
    });
    expect(serializeDashboard(row, 7, { ...creator, registered: false }).creatorId).to.equal(null);
  });

  it('buildCreatorCampaignsQuery filters on lower-cased creator addresses and a status', () => {
    const body = buildCreatorCampaignsQuery(['0xAA', '0xbb'], 'FUTURE', 100);
    expect(body.query.bool.filter).to.deep.equal([
      { terms: { creatorAddress: ['0xaa', '0xbb'] } },
      { range: { startTimestamp: { gt: 100 } } },
    ]);
    expect(buildCreatorCampaignsQuery(['0xaa'], undefined, 100).query.bool.filter).to.have.length(1);
  });

  it('creatorStatusClause: PAST ended, LIVE running', () => {
    expect(creatorStatusClause('PAST', 5)).to.deep.equal({ range: { endTimestamp: { lte: 5 } } });
    expect(creatorStatusClause('LIVE', 5)).to.deep.equal({
      bool: { filter: [{ range: { startTimestamp: { lte: 5 } } }, { range: { endTimestamp: { gt: 5 } } }] },
    });
  });
});
