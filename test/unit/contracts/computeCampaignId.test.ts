import { expect } from 'chai';
import { decodeAbiParameters, size, sliceHex } from 'viem';
import type { Address } from 'viem';
import { encodeClammCampaignData, encodeErc20CampaignData } from '../../../contracts/campaignData.js';
import { computeCampaignId } from '../../../domain/campaignId.js';

// Vectors from docs/contracts.md#campaign-id.
const base = {
  creator: '0x1111111111111111111111111111111111111111' as Address,
  rewardToken: '0x2222222222222222222222222222222222222222' as Address,
  campaignType: 1,
  startTimestamp: 1700000000,
  duration: 86400,
};
const target: Address = '0x3333333333333333333333333333333333333333';

describe('contracts/campaignData', () => {
  describe('encodeErc20CampaignData', () => {
    it('is 416 bytes with only the target set (7-field type-1 layout)', () => {
      expect(size(encodeErc20CampaignData({ targetToken: target }))).to.equal(416);
    });

    it('round-trips every field', () => {
      const data = encodeErc20CampaignData({
        targetToken: target,
        whitelist: ['0x4444444444444444444444444444444444444444'],
        blacklist: ['0x5555555555555555555555555555555555555555'],
        url: 'https://example.org/pool',
        forwarders: ['0x01'],
        hooks: ['0x0203'],
        extraData: '0xdead',
      });
      const decoded = decodeAbiParameters(
        [
          { type: 'address' },
          { type: 'address[]' },
          { type: 'address[]' },
          { type: 'string' },
          { type: 'bytes[]' },
          { type: 'bytes[]' },
          { type: 'bytes' },
        ],
        data,
      );
      expect(decoded).to.deep.equal([
        target,
        ['0x4444444444444444444444444444444444444444'],
        ['0x5555555555555555555555555555555555555555'],
        'https://example.org/pool',
        ['0x01'],
        ['0x0203'],
        '0xdead',
      ]);
    });
  });

  describe('encodeClammCampaignData', () => {
    it('has 7 static head words then 5 empty dynamic fields at offsets 0x180…0x200', () => {
      const data = encodeClammCampaignData({
        pool: '0xec88000000000000000000000000000000b9db00',
        weightFees: 2000,
        weightToken0: 4000,
        weightToken1: 4000,
        isOutOfRangeIncentivized: false,
      });
      expect(size(data)).to.equal(544);
      const offsets = [7, 8, 9, 10, 11].map((w) => BigInt(sliceHex(data, w * 32, (w + 1) * 32)));
      expect(offsets).to.deep.equal([0x180n, 0x1a0n, 0x1c0n, 0x1e0n, 0x200n]);
      expect(BigInt(sliceHex(data, 32, 64))).to.equal(2000n);
      expect(BigInt(sliceHex(data, 128, 160))).to.equal(0n);
    });
  });

  describe('computeCampaignId', () => {
    const campaignData = encodeErc20CampaignData({ targetToken: target });

    it('matches the documented vector for chainId 1', () => {
      expect(computeCampaignId({ ...base, chainId: 1, campaignData })).to.equal(
        '0x333b5fc48513d5a8c20cd3dc29bcdb344da473474fac39a5d3799eff7f8b4163',
      );
    });

    it('matches the documented vector for chainId 31337', () => {
      expect(computeCampaignId({ ...base, chainId: 31337n, campaignData })).to.equal(
        '0xecd3fdd97eedc6d320ad104a4a4a7a114022665f3251ccf12fa125b191c20cc1',
      );
    });

    it('matches the documented vector for empty campaignData', () => {
      expect(computeCampaignId({ ...base, chainId: 1, campaignData: '0x' })).to.equal(
        '0xdc1e03029cf3185fdc740f108b7288f9392b39b30e3105ae2547112693a91da7',
      );
    });

    it('changes when the start moves by one second', () => {
      const a = computeCampaignId({ ...base, chainId: 1, campaignData });
      const b = computeCampaignId({ ...base, startTimestamp: base.startTimestamp + 1, chainId: 1, campaignData });
      expect(a).to.not.equal(b);
    });
  });
});
