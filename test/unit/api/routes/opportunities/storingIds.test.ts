import { expect } from 'chai';
import { buildStoringIdTrees } from '../../../../../api/routes/opportunities/storingIds.js';
import type { StoringCampaignRow } from '../../../../../api/reads/opportunityHistory.js';

const NOW = 1000;
const row = (id: string, o: Partial<StoringCampaignRow> = {}): StoringCampaignRow => ({
  id,
  opportunity_id: 'opp',
  campaign_id: `0x${id}`,
  compute_chain_id: 1,
  campaign_type: 1,
  main_parameter: '0xpool',
  start_timestamp: '900',
  end_timestamp: '1100',
  parent_campaign_id: null,
  ...o,
});

describe('api/routes/opportunities/storingIds', () => {
  const rows = [
    row('a'),
    row('b', { start_timestamp: '1500', end_timestamp: '2000' }),
    row('c', { end_timestamp: '950' }),
    row('a1', { parent_campaign_id: 'a', campaign_type: 4, opportunity_id: 'other' }),
    row('a2', { parent_campaign_id: 'a', end_timestamp: '950', main_parameter: '0xsub' }),
  ];

  it('builds one tree per LIVE root by default; sub-campaigns unfiltered; JSON_AIRDROP has no storing id', () => {
    expect(buildStoringIdTrees(rows, 'opp', ['LIVE'], NOW)).to.deep.equal([
      {
        campaignId: 'a',
        storingIds: ['1_0xpool'],
        subCampaigns: [
          { campaignId: 'a1', storingIds: [], subCampaigns: [] },
          { campaignId: 'a2', storingIds: ['1_0xsub'], subCampaigns: [] },
        ],
      },
    ]);
  });

  it('filters roots by campaignStatus and always excludes past roots', () => {
    expect(buildStoringIdTrees(rows, 'opp', ['SOON'], NOW).map((t) => t.campaignId)).to.deep.equal(['b']);
    expect(buildStoringIdTrees(rows, 'opp', ['LIVE', 'SOON', 'PAST'], NOW).map((t) => t.campaignId)).to.deep.equal([
      'a',
      'b',
    ]);
  });
});
