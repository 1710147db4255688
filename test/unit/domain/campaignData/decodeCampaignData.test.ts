import { expect } from 'chai';
import { encodeAbiParameters, keccak256, toHex } from 'viem';
import { decodeCampaignData } from '../../../../domain/campaignData/decodeCampaignData.js';

describe('domain/campaignData/decodeCampaignData: MORPHO markets', () => {
  const marketId = keccak256(toHex('a Morpho Blue market'));

  it('names a Morpho Blue market by its 32-byte id (abi.encode(bytes32 marketId))', () => {
    const data = encodeAbiParameters([{ type: 'bytes32' }], [marketId]);
    expect(decodeCampaignData(7, data).mainParameter).to.equal(marketId.toLowerCase());
  });

  it('keeps an address market (abi.encode(address market)) as the address', () => {
    const market = '0x00000000000000000000000000000000000000aa';
    expect(decodeCampaignData(7, encodeAbiParameters([{ type: 'address' }], [market])).mainParameter).to.equal(market);
  });

  it('other RAW types never take a hash word as their identifier', () => {
    expect(decodeCampaignData(11, encodeAbiParameters([{ type: 'bytes32' }], [marketId])).mainParameter).to.equal(null);
  });
});
