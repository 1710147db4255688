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

describe('domain/campaignData/decodeCampaignData: UNISWAP_V4 pools', () => {
  const poolId = keccak256(toHex('a Uniswap V4 PoolKey'));

  it("names a Uniswap V4 pool by its id, the data's first word", () => {
    const data = encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint32' }], [poolId, 4000]);
    expect(decodeCampaignData(13, data).mainParameter).to.equal(poolId.toLowerCase());
  });

  it("keeps an address identifier (the demo's stand-ins) as the address", () => {
    const pool = '0x00000000000000000000000000000000000000bb';
    expect(decodeCampaignData(13, encodeAbiParameters([{ type: 'address' }], [pool])).mainParameter).to.equal(pool);
  });
});
