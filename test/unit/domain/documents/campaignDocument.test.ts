import { expect } from 'chai';
import {
  distributionFamilyOf,
  foldSearchText,
  toCampaignDocument,
} from '../../../../domain/documents/campaignDocument.js';
import { opportunityDbId, tokenDbId } from '../../../../domain/ids.js';
import { campaignEncodingHash } from '../../../../domain/campaignData/toConfiguration.js';
import { campaignSource, FIXTURE_TARGET_TOKEN, NO_TOKEN_ROW } from '../../../fixtures/indexer/campaignSource.js';

const targetToken = FIXTURE_TARGET_TOKEN;
const campaignData = campaignSource().campaign_data;
const indexedAt = new Date('2024-05-01T12:00:00.000Z');
const chainNames = new Map([
  [31337, 'Devnet Alpha'],
  [31338, 'Devnet Beta'],
]);

describe('domain/documents/campaignDocument', () => {
  describe('toCampaignDocument', () => {
    it('copies the campaign columns and names the campaign type', () => {
      const doc = toCampaignDocument(campaignSource(), chainNames, indexedAt);
      expect(doc).to.include({
        id: '2536619999332751661',
        computeChainId: 31338,
        distributionChainId: 31337,
        campaignId: `0x${'ab'.repeat(32)}`,
        type: 'ERC20',
        campaignType: 1,
        amount: '1000000000000000000000',
        creatorAddress: '0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
        createdAt: '2023-11-14T22:00:00.000Z',
        indexedAt: '2024-05-01T12:00:00.000Z',
      });
      expect(doc.params).to.deep.equal({
        targetToken: FIXTURE_TARGET_TOKEN,
        whitelist: [],
        blacklist: [],
        url: '',
        forwarders: [],
        hooks: [],
        extraData: '0x',
        campaignData,
      });
      expect(doc.creator).to.deep.equal({
        address: '0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
        tags: [],
        creatorId: null,
      });
    });

    it('turns the bigint timestamp columns into numbers', () => {
      const doc = toCampaignDocument(campaignSource(), chainNames, indexedAt);
      expect(doc.startTimestamp).to.equal(1_700_000_000);
      expect(doc.endTimestamp).to.equal(1_700_086_400);
    });

    it('keeps an unknown campaign type as TYPE_<n>', () => {
      expect(toCampaignDocument(campaignSource({ campaign_type: 99 }), chainNames, indexedAt).type).to.equal('TYPE_99');
    });

    it('groups into the opportunity of (compute chain, type, target token)', () => {
      const doc = toCampaignDocument(campaignSource(), chainNames, indexedAt);
      expect(doc.mainParameter).to.equal(targetToken);
      expect(doc.opportunityId).to.equal(opportunityDbId(31338, 'ERC20', targetToken));
    });

    it('hashes the campaign data into campaignEncodingHash', () => {
      expect(toCampaignDocument(campaignSource(), chainNames, indexedAt).campaignEncodingHash).to.equal(
        campaignEncodingHash(campaignData),
      );
    });

    it('embeds the joined reward token', () => {
      const doc = toCampaignDocument(campaignSource(), chainNames, indexedAt);
      expect(doc.rewardTokenId).to.equal('42');
      expect(doc.rewardToken).to.deep.equal({
        id: '42',
        name: 'Reward Token',
        chainId: 31337,
        address: '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
        decimals: 6,
        symbol: 'RWD',
        icon: 'https://icons.invalid/rwd.svg',
        verified: true,
        isNative: false,
        isTest: true,
        type: 'POINT',
        price: null,
        updatedAt: null,
        priceSource: null,
      });
    });

    it('falls back to neutral token values when the token row is missing', () => {
      const doc = toCampaignDocument(campaignSource(NO_TOKEN_ROW), chainNames, indexedAt);
      const id = tokenDbId(31337, '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb');
      expect(doc.rewardTokenId).to.equal(id);
      expect(doc.rewardToken).to.deep.equal({
        id,
        name: null,
        chainId: 31337,
        address: '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
        decimals: 18,
        symbol: '',
        icon: '',
        verified: false,
        isNative: false,
        isTest: false,
        type: 'TOKEN',
        price: null,
        updatedAt: null,
        priceSource: null,
      });
    });

    it('starts computed figures at their neutral values', () => {
      const doc = toCampaignDocument(campaignSource(), chainNames, indexedAt);
      expect(doc).to.include({
        apr: 0,
        dailyRewards: 0,
        subType: null,
        description: '',
        distributionType: 'DUTCH_AUCTION',
        hasOverrides: false,
        isPrivate: false,
        hidden: false,
        hideLeaderboard: false,
      });
      expect(doc.campaignStatus).to.deep.equal({
        campaignId: `0x${'ab'.repeat(32)}`,
        computedUntil: 0,
        processingStarted: 0,
        status: 'PROCESSING',
        preComputeProcessingStarted: 0,
        preComputeStatus: 'PROCESSING',
      });
    });

    it('puts type, token symbol and name, ids, creator, main parameter and compute chain name in searchText, folded', () => {
      const doc = toCampaignDocument(campaignSource(), chainNames, indexedAt);
      expect(doc.searchText.split(' ')).to.include.members([
        'erc20',
        'rwd',
        'reward',
        'token',
        `0x${'ab'.repeat(32)}`,
        '0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
        targetToken,
        'devnet',
        'beta',
      ]);
    });

    it('strips accents from searchText (the cluster has no asciifolding)', () => {
      const doc = toCampaignDocument(campaignSource({ token_name: 'Crème Brûlée' }), chainNames, indexedAt);
      expect(doc.searchText.split(' ')).to.include.members(['creme', 'brulee']);
    });

    it('carries the protocol slug of the campaign type as mainProtocolId (null without one)', () => {
      expect(toCampaignDocument(campaignSource({ campaign_type: 2 }), chainNames, indexedAt).mainProtocolId).to.equal(
        'uniswap-v3',
      );
      expect(toCampaignDocument(campaignSource(), chainNames, indexedAt).mainProtocolId).to.equal(null);
    });

    it('carries the distribution filter family', () => {
      expect(toCampaignDocument(campaignSource(), chainNames, indexedAt)).to.include({
        distributionType: 'DUTCH_AUCTION',
        distributionFamily: 'DUTCH_AUCTION',
      });
    });
  });

  describe('foldSearchText', () => {
    it('lower-cases and strips diacritics', () => {
      expect(foldSearchText('ÉCLAIR Ñandú Straße')).to.equal('eclair nandu straße');
    });
  });

  describe('distributionFamilyOf', () => {
    for (const [type, family] of [
      ['FIX_REWARD_VALUE_PER_LIQUIDITY_AMOUNT', 'FIX_REWARD'],
      ['MAX_REWARD_AMOUNT_PER_LIQUIDITY_VALUE', 'MAX_REWARD'],
      ['DUTCH_AUCTION', 'DUTCH_AUCTION'],
      ['AAVE_NET_APR', 'TOTAL_APR'],
      ['ERC4626_SPREAD_CAPPED', 'TOTAL_APR'],
    ] as const) {
      it(`${type} → ${family}`, () => expect(distributionFamilyOf(type)).to.equal(family));
    }
  });
});
