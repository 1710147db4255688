import { expect } from 'chai';
import {
  CLAIMS_SOURCE_ID,
  serializeClaim,
  serializeClaimsStatus,
  serializeCompactClaim,
  serializeWatermark,
} from '../../../../../api/routes/claims/serialize.js';
import type { ClaimDbRow } from '../../../../../api/routes/claims/repo.js';

const row: ClaimDbRow = {
  chain_id: 1,
  recipient: '0xa',
  token: '0xt',
  amount: '5',
  block_number: '10',
  block_hash: '0xb',
  tx_hash: '0xh',
  log_index: 2,
  timestamp: '100',
  root: '0xr',
  breakdowns: [{ campaignId: '0xc', reason: 'lp', amount: '7' }],
  is_latest: true,
};

describe('api/routes/claims serializers', () => {
  it('attributes a claim to the campaign when its root has one breakdown for the pair', () => {
    expect(serializeClaim(row)).to.deep.equal({
      id: '1-0xh-2',
      chainId: 1,
      recipient: '0xa',
      blockNumber: 10,
      timestamp: 100,
      token: '0xt',
      campaignId: '0xc',
      reason: 'lp',
      root: '0xr',
      amount: '5',
      metadata: { txHash: '0xh', logIndex: 2, blockHash: '0xb', breakdowns: row.breakdowns },
      isLatest: true,
    });
  });

  it('leaves campaignId and reason null when ambiguous or without a live root', () => {
    const two = serializeClaim({
      ...row,
      breakdowns: [...row.breakdowns!, { campaignId: '0xd', reason: '', amount: '1' }],
    });
    expect([two.campaignId, two.reason, two.metadata.breakdowns.length]).to.deep.equal([null, null, 2]);
    const none = serializeClaim({ ...row, root: null, breakdowns: null });
    expect([none.campaignId, none.root, none.metadata.breakdowns]).to.deep.equal([null, null, []]);
  });

  it('serializes compact rows, watermark and status', () => {
    expect(
      serializeCompactClaim({
        chain_id: 1,
        recipient: '0xa',
        token: '0xt',
        block_number: '3',
        timestamp: '9',
        tx_hash: '0xh',
        amount: '4',
      }),
    ).to.deep.equal({
      chainId: 1,
      recipient: '0xa',
      token: '0xt',
      blockNumber: 3,
      timestamp: 9,
      txHash: '0xh',
      amount: '4',
    });
    const state = {
      cursorBlock: 90,
      cursorTimestamp: 900,
      cursorUpdatedAt: new Date('2026-01-01T00:00:00Z'),
      claimCount: 4,
    };
    expect(serializeWatermark(state)).to.deep.equal({ lastTimestamp: 900, updatedAt: '2026-01-01T00:00:00.000Z' });
    expect(serializeWatermark({ ...state, cursorBlock: null, cursorTimestamp: null, cursorUpdatedAt: null })).to.equal(
      null,
    );
    expect(serializeClaimsStatus(1, state, { number: 100, timestamp: 960 })).to.deep.equal({
      chainId: 1,
      sources: [
        {
          sourceId: CLAIMS_SOURCE_ID,
          chainId: 1,
          currentBlock: 100,
          lastFetchedBlock: 90,
          blockDifference: 10,
          claimCount: 4,
          timeBehind: 60,
        },
      ],
    });
    expect(serializeClaimsStatus(1, state, null).sources[0]).to.include({
      currentBlock: null,
      blockDifference: null,
      timeBehind: null,
    });
  });
});
