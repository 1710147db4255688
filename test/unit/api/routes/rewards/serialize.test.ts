import { expect } from 'chai';
import { serializeReward } from '../../../../../api/reads/rewards/serialize.js';

const row = {
  recipient: '0x01',
  campaign_id: '0xc1',
  reason: 'holder',
  token: '0x02',
  amount: '1000000000000000000000',
  claimed: '1',
};

describe('api/routes/rewards/serialize serializeReward', () => {
  it('names every field, pending = amount − claimed in exact integer units', () => {
    expect(serializeReward(row)).to.deep.equal({
      recipient: '0x01',
      campaignId: '0xc1',
      reason: 'holder',
      rewardTokenAddress: '0x02',
      amount: '1000000000000000000000',
      claimed: '1',
      pending: '999999999999999999999',
    });
  });

  it('never serves a negative pending (claimed covers other campaigns of the token)', () => {
    expect(serializeReward({ ...row, amount: '5', claimed: '9' }).pending).to.equal('0');
  });
});
