import { expect } from 'chai';
import { toCampaignDocument } from '../../../../../domain/documents/campaignDocument.js';
import type { ChainRecord } from '../../../../../domain/documents/records.js';
import { serializeCampaign } from '../../../../../api/reads/campaigns/serialize.js';
import { campaignSource } from '../../../../fixtures/indexer/campaignSource.js';

/** Resources › Campaign of the API spec, in table order. */
const CAMPAIGN_FIELDS = [
  'id',
  'computeChainId',
  'distributionChainId',
  'campaignId',
  'type',
  'subType',
  'amount',
  'startTimestamp',
  'endTimestamp',
  'creatorAddress',
  'apr',
  'dailyRewards',
  'creator',
  'params',
  'description',
  'chain',
  'rewardTokenId',
  'rewardToken',
  'opportunityId',
  'distributionChain',
  'distributionType',
  'campaignStatus',
  'createdAt',
  'rootCampaignId',
  'parentCampaignId',
  'childCampaignIds',
  'dailyRewardsBreakdown',
  'pauseCompute',
  'pausePrecompute',
  'hasOverrides',
  'isPrivate',
  'hidden',
  'hideLeaderboard',
  'campaignEncodingHash',
];
const SEARCH_ONLY_FIELDS = ['searchText', 'mainParameter', 'indexedAt', 'campaignType'];

function chain(id: number, name: string): ChainRecord {
  return {
    id,
    name,
    icon: `https://icons.invalid/chains/${id}.svg`,
    liveCampaigns: 3,
    endOfDisputePeriod: 0,
    explorers: [],
    lastClaimsOnchainFetchTimestamp: null,
  };
}

const alpha = chain(31337, 'Devnet Alpha');
const beta = chain(31338, 'Devnet Beta');
const chains = new Map([
  [31337, alpha],
  [31338, beta],
]);
const doc = toCampaignDocument(
  campaignSource(),
  new Map([
    [31337, 'Devnet Alpha'],
    [31338, 'Devnet Beta'],
  ]),
  new Date('2024-05-01T12:00:00.000Z'),
);

describe('api/routes/campaigns/serialize', () => {
  describe('serializeCampaign', () => {
    it('returns exactly the Campaign fields of the spec', () => {
      expect(Object.keys(serializeCampaign(doc, chains))).to.have.members(CAMPAIGN_FIELDS);
    });

    it('drops the search-only fields', () => {
      const record = serializeCampaign(doc, chains);
      for (const field of SEARCH_ONLY_FIELDS) expect(record).not.to.have.property(field);
    });

    it('attaches the compute chain as chain and the distribution chain as distributionChain', () => {
      const record = serializeCampaign(doc, chains);
      expect(record.chain).to.deep.equal(beta);
      expect(record.distributionChain).to.deep.equal(alpha);
    });

    it('serves null for a chain it does not know', () => {
      const record = serializeCampaign(doc, new Map([[31337, alpha]]));
      expect(record.chain).to.equal(null);
      expect(record.distributionChain).to.deep.equal(alpha);
    });

    it('serves Unix timestamps as decimal strings', () => {
      const record = serializeCampaign(doc, chains);
      expect(record.startTimestamp).to.equal('1700000000');
      expect(record.endTimestamp).to.equal('1700086400');
    });

    it('passes the other fields of the document through unchanged', () => {
      const record = serializeCampaign(doc, chains) as Record<string, unknown>;
      for (const field of CAMPAIGN_FIELDS.filter(
        (f) => !['chain', 'distributionChain', 'startTimestamp', 'endTimestamp'].includes(f),
      )) {
        expect(record[field], field).to.deep.equal((doc as Record<string, unknown>)[field]);
      }
    });

    it('is plain JSON (survives a JSON round trip unchanged)', () => {
      const record = serializeCampaign(doc, chains);
      expect(JSON.parse(JSON.stringify(record))).to.deep.equal(record);
    });
  });
});
