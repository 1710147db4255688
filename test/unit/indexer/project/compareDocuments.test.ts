import { expect } from 'chai';
import { compareDocuments } from '../../../../indexer/project/compareDocuments.js';

const campaign = {
  campaignId: '0xabc',
  distributionChainId: 1,
  computeChainId: 1,
  type: 'ERC20',
  campaignType: 1,
  amount: '1000000000000000000000',
  startTimestamp: 10,
  endTimestamp: 20,
  opportunityId: '42',
  hasOverrides: false,
  rewardTokenId: '7',
  creatorAddress: '0xcreator',
  indexedAt: '2026-01-01T00:00:00.000Z',
  searchText: 'a',
};

describe('indexer/project/compareDocuments', () => {
  it('finds no difference between equal documents, whatever the fields it does not compare', () => {
    expect(
      compareDocuments('campaigns', campaign, { ...campaign, indexedAt: 'later', searchText: 'other' }),
    ).to.deep.equal([]);
  });

  it('names each differing field with the expected (PostgreSQL) and actual (Elasticsearch) values', () => {
    expect(compareDocuments('campaigns', campaign, { ...campaign, amount: '5', endTimestamp: 30 })).to.deep.equal([
      { field: 'amount', expected: '1000000000000000000000', actual: '5' },
      { field: 'endTimestamp', expected: 20, actual: 30 },
    ]);
  });

  it('reports a field missing from the document as null', () => {
    const { opportunityId: _, ...withoutOpportunity } = campaign;
    expect(compareDocuments('campaigns', campaign, withoutOpportunity)).to.deep.equal([
      { field: 'opportunityId', expected: '42', actual: null },
    ]);
  });

  it('compares opportunity campaign ids and windows as sets', () => {
    const opportunity = {
      chainId: 1,
      type: 'ERC20',
      identifier: '0xt',
      action: 'HOLD',
      name: 'Hold T',
      lastCampaignCreatedAt: 5,
      campaignIds: ['0x1', '0x2'],
      campaignWindows: [
        { start: 1, end: 2 },
        { start: 3, end: 4 },
      ],
    };
    const reordered = {
      ...opportunity,
      campaignIds: ['0x2', '0x1'],
      campaignWindows: [
        { start: 3, end: 4 },
        { start: 1, end: 2 },
      ],
    };
    expect(compareDocuments('opportunities', opportunity, reordered)).to.deep.equal([]);
    expect(
      compareDocuments('opportunities', opportunity, { ...opportunity, campaignIds: ['0x1'] }).map((d) => d.field),
    ).to.deep.equal(['campaignIds']);
  });

  it('compares amounts as decimal strings', () => {
    expect(compareDocuments('campaigns', { ...campaign, amount: '12' }, { ...campaign, amount: 12 })).to.deep.equal([]);
  });
});
