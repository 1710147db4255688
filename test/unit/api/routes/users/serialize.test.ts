import { expect } from 'chai';
import {
  BREAKDOWN_PAGE_SIZE,
  campaignStatusAt,
  cappedClaimed,
  serializeUserReward,
  splitClaimed,
} from '../../../../../api/reads/users/serialize.js';
import { splitChainIds, unsupportedChainErrors } from '../../../../../api/reads/users/params.js';

describe('api/routes/users serializers', () => {
  it('splits claimed pro rata, parts summing to claimed and never above their amount', () => {
    expect(splitClaimed([30n, 70n], 50n)).to.deep.equal([15n, 35n]);
    expect(splitClaimed([1n, 1n, 1n], 2n)).to.deep.equal([1n, 1n, 0n]);
    expect(splitClaimed([10n, 20n], 100n)).to.deep.equal([10n, 20n]);
    expect(splitClaimed([0n], 5n)).to.deep.equal([0n]);
  });

  it('caps claimed at the amount and gives campaign statuses', () => {
    expect(cappedClaimed(10n, 12n)).to.equal(10n);
    expect(cappedClaimed(10n, 4n)).to.equal(4n);
    expect([
      campaignStatusAt({ start: 10, end: 20 }, 5),
      campaignStatusAt({ start: 10, end: 20 }, 10),
      campaignStatusAt({ start: 10, end: 20 }, 20),
    ]).to.deep.equal(['SOON', 'LIVE', 'PAST']);
  });

  it('serializes a reward with pending = amount − claimed and paged breakdowns', () => {
    const reward = {
      recipient: '0xa',
      token: '0xt',
      amount: '100',
      breakdowns: [
        { campaignId: '0xC1', reason: 'lp', amount: '40' },
        { campaignId: '0xc2', reason: '', amount: '60' },
      ],
    };
    const out = serializeUserReward({
      chainId: 1,
      root: '0xr',
      reward,
      claimedTotal: 50n,
      proofs: ['0xp'],
      token: { address: '0xt', symbol: 'T', decimals: 6, type: 'TOKEN', isTest: false },
      campaigns: new Map([['0xc1', { campaignId: '0xc1', start: 0, end: 10, opportunityId: null }]]),
      now: 5,
      breakdownPage: 0,
    });
    expect(out).to.deep.equal({
      root: '0xr',
      recipient: '0xa',
      proofs: ['0xp'],
      token: { address: '0xt', chainId: 1, symbol: 'T', decimals: 6 },
      amount: '100',
      claimed: '50',
      pending: '50',
      breakdowns: [
        { reason: 'lp', amount: '40', claimed: '20', pending: '20', campaignId: '0xC1', campaignStatus: 'LIVE' },
        { reason: '', amount: '60', claimed: '30', pending: '30', campaignId: '0xc2' },
      ],
    });
    expect(BREAKDOWN_PAGE_SIZE).to.equal(100);
  });

  it('splits chain id lists and names unsupported chains', () => {
    expect(splitChainIds(['1,2', '2', '3'])).to.deep.equal([1, 2, 3]);
    expect(splitChainIds(undefined)).to.equal(undefined);
    expect(unsupportedChainErrors('chainId', [1, 9], new Set([1]))).to.deep.equal([
      { field: 'chainId', message: 'is not a supported chain (9)' },
    ]);
    expect(unsupportedChainErrors('chainId', [1], new Set([1]))).to.deep.equal([]);
  });
});
