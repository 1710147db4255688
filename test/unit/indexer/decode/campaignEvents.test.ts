import { expect } from 'chai';
import { encodeAbiParameters, pad } from 'viem';
import type { Address, Hex } from 'viem';
import { encodeErc20CampaignData } from '../../../../contracts/campaignData.js';
import { DecodeError, decodeNewCampaign } from '../../../../indexer/decode/campaignEvents.js';
import { leadingAddress, unwrapCampaignData } from '../../../../domain/campaignData/unwrapCampaignData.js';

type DecodedLog = Parameters<typeof decodeNewCampaign>[1];

const targetToken: Address = '0x1111111111111111111111111111111111111111';
const erc20Data = encodeErc20CampaignData({ targetToken });

/** docs/contracts.md#campaign-data-encodings: abi.encode(uint32 computeChainId, bytes inner) ++ 0xc0c0c0c0. */
function wrapCrossChain(computeChainId: number, inner: Hex): Hex {
  return `${encodeAbiParameters([{ type: 'uint32' }, { type: 'bytes' }], [computeChainId, inner])}c0c0c0c0`;
}

function log(overrides: Partial<DecodedLog> = {}): DecodedLog {
  return {
    args: {
      campaign: {
        campaignId: `0x${'ab'.repeat(32)}`,
        creator: '0xAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAa',
        rewardToken: '0x2222222222222222222222222222222222222222',
        amount: 10n ** 21n,
        campaignType: 1,
        startTimestamp: 1_700_000_000,
        duration: 86_400,
        campaignData: erc20Data,
      },
    },
    blockNumber: 42n,
    blockHash: `0x${'cd'.repeat(32)}`,
    transactionHash: `0x${'ef'.repeat(32)}`,
    logIndex: 3,
    ...overrides,
  };
}

describe('indexer/decode/campaignEvents', () => {
  describe('decodeNewCampaign', () => {
    it('maps a mined log to a NewCampaignEvent with its block position', () => {
      expect(decodeNewCampaign(31337, log())).to.deep.equal({
        chainId: 31337,
        blockNumber: 42,
        blockHash: `0x${'cd'.repeat(32)}`,
        txHash: `0x${'ef'.repeat(32)}`,
        logIndex: 3,
        campaignId: `0x${'ab'.repeat(32)}`,
        creator: '0xAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAa',
        rewardToken: '0x2222222222222222222222222222222222222222',
        amount: 10n ** 21n,
        campaignType: 1,
        startTimestamp: 1_700_000_000,
        duration: 86_400,
        campaignData: erc20Data,
      });
    });

    it('converts the bigint block number to a number', () => {
      expect(decodeNewCampaign(1, log({ blockNumber: 123_456_789n })).blockNumber).to.equal(123_456_789);
    });

    it('refuses a pending log (no block number, hash, tx hash or log index) with DecodeError', () => {
      for (const pending of [
        { blockNumber: null },
        { blockHash: null },
        { transactionHash: null },
        { logIndex: null },
      ]) {
        expect(() => decodeNewCampaign(31338, log(pending))).to.throw(DecodeError, /chain 31338/);
      }
    });

    it('accepts log index 0 and block 0', () => {
      const event = decodeNewCampaign(1, log({ blockNumber: 0n, logIndex: 0 }));
      expect(event.blockNumber).to.equal(0);
      expect(event.logIndex).to.equal(0);
    });
  });

  describe('unwrapCampaignData', () => {
    it('splits a cross-chain wrapped payload into compute chain and inner data', () => {
      expect(unwrapCampaignData(wrapCrossChain(8453, erc20Data))).to.deep.equal({
        computeChainId: 8453,
        data: erc20Data,
      });
    });

    it('accepts an upper-case suffix', () => {
      const wrapped = wrapCrossChain(10, erc20Data);
      const upper = `${wrapped.slice(0, -8)}C0C0C0C0` as Hex;
      expect(unwrapCampaignData(upper)).to.deep.equal({ computeChainId: 10, data: erc20Data });
    });

    it('unwraps an empty inner payload', () => {
      expect(unwrapCampaignData(wrapCrossChain(42161, '0x'))).to.deep.equal({ computeChainId: 42161, data: '0x' });
    });

    it('returns plain data as is, with no compute chain', () => {
      expect(unwrapCampaignData(erc20Data)).to.deep.equal({ computeChainId: null, data: erc20Data });
      expect(unwrapCampaignData('0x')).to.deep.equal({ computeChainId: null, data: '0x' });
    });

    it('returns data that merely ends in c0c0c0c0 as is when it is too short or not decodable', () => {
      const short: Hex = '0x1234c0c0c0c0';
      expect(unwrapCampaignData(short)).to.deep.equal({ computeChainId: null, data: short });
      const garbage = `0x${'ff'.repeat(96)}c0c0c0c0` as Hex;
      expect(unwrapCampaignData(garbage)).to.deep.equal({ computeChainId: null, data: garbage });
    });
  });

  describe('leadingAddress', () => {
    it('reads the target token of ERC20 campaign data', () => {
      expect(leadingAddress(erc20Data)).to.equal(targetToken);
    });

    it('returns null for empty data', () => {
      expect(leadingAddress('0x')).to.equal(null);
    });

    it('returns null when the data is shorter than one word', () => {
      expect(leadingAddress(`0x${'00'.repeat(12)}${'11'.repeat(10)}`)).to.equal(null);
    });

    it('returns null when the first word is not an address (high bytes set)', () => {
      expect(leadingAddress(pad('0x01', { dir: 'right', size: 32 }))).to.equal(null);
      expect(leadingAddress(`0x${'ff'.repeat(32)}`)).to.equal(null);
    });

    it('returns null for the zero address word', () => {
      expect(leadingAddress(`0x${'00'.repeat(64)}`)).to.equal(null);
    });
  });
});
