import { expect } from 'chai';
import { encodeAbiParameters, keccak256 } from 'viem';
import type { Address, Hex } from 'viem';
import { encodeErc20CampaignData } from '../../../../contracts/campaignData.js';
import type { NewCampaignEvent } from '../../../../indexer/decode/campaignEvents.js';
import { campaignDbId } from '../../../../domain/ids.js';
import { campaignEncodingHash, toConfiguration } from '../../../../domain/campaignData/toConfiguration.js';
import { toCampaignRows, toOpportunityRows } from '../../../../indexer/transform/campaigns.js';
import { opportunityDbId } from '../../../../domain/ids.js';

const targetToken: Address = '0x1111111111111111111111111111111111111111';
const erc20Data = encodeErc20CampaignData({ targetToken });
const wrapped = `${encodeAbiParameters([{ type: 'uint32' }, { type: 'bytes' }], [8453, erc20Data])}c0c0c0c0` as Hex;
const campaignIdMixed: Hex = `0x${'AB'.repeat(32)}`;

function event(overrides: Partial<NewCampaignEvent> = {}): NewCampaignEvent {
  return {
    chainId: 31337,
    blockNumber: 7,
    blockHash: `0x${'CD'.repeat(32)}`,
    txHash: `0x${'EF'.repeat(32)}`,
    logIndex: 2,
    campaignId: campaignIdMixed,
    creator: '0xAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAa',
    rewardToken: '0xBbBbBbBbBbBbBbBbBbBbBbBbBbBbBbBbBbBbBbBb',
    amount: 123_456_789_012_345_678_901_234_567_890n,
    campaignType: 1,
    startTimestamp: 1_700_000_000,
    duration: 3_600,
    campaignData: erc20Data,
    ...overrides,
  };
}

describe('indexer/transform/campaigns', () => {
  describe('toCampaignRows', () => {
    it('maps an event to a row: ids, lower-cased hex, end = start + duration, amount as a decimal string', () => {
      const [row] = toCampaignRows([event()], new Map([[7, 1_700_000_100]]));
      expect(row).to.deep.equal({
        id: campaignDbId(31337, campaignIdMixed),
        distributionChainId: 31337,
        computeChainId: 31337,
        campaignId: `0x${'ab'.repeat(32)}`,
        creator: '0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
        rewardToken: '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
        amount: '123456789012345678901234567890',
        campaignType: 1,
        startTimestamp: 1_700_000_000,
        endTimestamp: 1_700_003_600,
        campaignData: erc20Data,
        blockNumber: 7,
        blockHash: `0x${'cd'.repeat(32)}`,
        txHash: `0x${'ef'.repeat(32)}`,
        logIndex: 2,
        createdAt: new Date(1_700_000_100 * 1000),
        mainParameter: targetToken,
        opportunityId: opportunityDbId(31337, 'ERC20', targetToken),
        parentCampaignId: null,
        params: { targetToken, whitelist: [], blacklist: [], url: '', forwarders: [], hooks: [], extraData: '0x' },
      });
    });

    it("takes createdAt from the timestamp of each event's own block", () => {
      const rows = toCampaignRows(
        [event({ blockNumber: 7 }), event({ blockNumber: 9, logIndex: 0 })],
        new Map([
          [7, 1_000],
          [9, 2_000],
        ]),
      );
      expect(rows.map((r) => r.createdAt.toISOString())).to.deep.equal([
        '1970-01-01T00:16:40.000Z',
        '1970-01-01T00:33:20.000Z',
      ]);
    });

    it('uses the compute chain of a cross-chain wrapped payload and keeps the data as emitted', () => {
      const [row] = toCampaignRows([event({ campaignData: wrapped })], new Map([[7, 1]]));
      expect(row!.computeChainId).to.equal(8453);
      expect(row!.distributionChainId).to.equal(31337);
      expect(row!.campaignData).to.equal(wrapped);
    });

    it('throws naming the block and chain when a block timestamp is missing', () => {
      expect(() => toCampaignRows([event({ blockNumber: 8 })], new Map([[7, 1]]))).to.throw(/block 8 on chain 31337/);
    });

    it('returns [] for no events', () => {
      expect(toCampaignRows([], new Map())).to.deep.equal([]);
    });
  });

  describe('toConfiguration', () => {
    const base = {
      distributionChainId: 31337,
      campaignId: campaignIdMixed,
      campaignType: 1,
      startTimestamp: 100,
      duration: 50,
    };

    it('uses the ERC20 target token as identifier and groups by compute chain + type name + identifier', () => {
      const c = toConfiguration({ ...base, campaignData: erc20Data });
      expect(c.mainParameter).to.equal(targetToken);
      expect(c.computeChainId).to.equal(31337);
      expect(c.endTimestamp).to.equal(150);
      expect(c.opportunityId).to.equal(opportunityDbId(31337, 'ERC20', targetToken));
      expect(c.params).to.include({ targetToken, url: '' });
    });

    it('reads the target token and the compute chain inside a cross-chain wrapped payload', () => {
      const c = toConfiguration({ ...base, campaignData: wrapped });
      expect(c.mainParameter).to.equal(targetToken);
      expect(c.computeChainId).to.equal(8453);
      expect(c.opportunityId).to.equal(opportunityDbId(8453, 'ERC20', targetToken));
    });

    it('falls back to the lower-cased campaign id and keeps raw data when nothing decodes', () => {
      const c = toConfiguration({ ...base, campaignType: 77, campaignData: '0x' });
      expect(c.mainParameter).to.equal(`0x${'ab'.repeat(32)}`);
      expect(c.params).to.deep.equal({ raw: '0x' });
    });

    it('records why a known type did not decode, and still derives an opportunity', () => {
      const c = toConfiguration({ ...base, campaignData: '0x1234' });
      expect(c.params['decodeError']).to.match(/type 1 data does not match its layout/);
      expect(c.opportunityId).to.match(/^\d+$/);
    });
  });

  describe('toOpportunityRows', () => {
    it('yields one row per opportunity with the action of its type', () => {
      const base = { distributionChainId: 31337, campaignId: campaignIdMixed, startTimestamp: 100, duration: 50 };
      const a = toConfiguration({ ...base, campaignType: 1, campaignData: erc20Data });
      const b = toConfiguration({ ...base, campaignType: 1, startTimestamp: 200, campaignData: erc20Data });
      const rows = toOpportunityRows([a, b]);
      expect(rows).to.deep.equal([
        { id: a.opportunityId, chainId: 31337, type: 'ERC20', identifier: targetToken, action: 'HOLD' },
      ]);
    });
  });

  describe('campaignEncodingHash', () => {
    it('is keccak256 of the campaign data', () => {
      expect(campaignEncodingHash(erc20Data)).to.equal(keccak256(erc20Data));
      expect(campaignEncodingHash('0x')).to.equal('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    });
  });
});
