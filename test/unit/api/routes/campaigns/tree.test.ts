import { expect } from 'chai';
import type { CampaignFamilyRow } from '../../../../../api/reads/campaignReads.js';
import { buildLinkedList, buildStoringIdsTree, storingIdsOf } from '../../../../../api/routes/campaigns/tree.js';

const row = (
  id: string,
  depth: number,
  parent: string | null,
  extra: Partial<CampaignFamilyRow> = {},
): CampaignFamilyRow => ({
  id,
  campaign_id: `0x${id}`,
  parent_campaign_id: parent,
  distribution_chain_id: 1,
  compute_chain_id: 10,
  campaign_type: 1,
  main_parameter: `0xm${id}`,
  campaign_data: '0x',
  start_timestamp: '0',
  end_timestamp: '1',
  depth,
  token_is_test: false,
  token_type: 'TOKEN',
  ...extra,
});

describe('api/routes/campaigns/tree', () => {
  it('storingIdsOf: computeChainId_mainParameter, none for JSON_AIRDROP', () => {
    expect(storingIdsOf(row('1', 0, null))).to.deep.equal(['10_0xm1']);
    expect(storingIdsOf(row('1', 0, null, { campaign_type: 4 }))).to.deep.equal([]);
  });

  it('buildStoringIdsTree nests sub-campaigns recursively under the requested campaign', () => {
    const tree = buildStoringIdsTree([row('1', 0, null), row('3', 1, '1'), row('2', 1, '1'), row('4', 2, '2')]);
    expect(tree).to.deep.equal({
      campaignId: '1',
      storingIds: ['10_0xm1'],
      subCampaigns: [
        {
          campaignId: '2',
          storingIds: ['10_0xm2'],
          subCampaigns: [{ campaignId: '4', storingIds: ['10_0xm4'], subCampaigns: [] }],
        },
        { campaignId: '3', storingIds: ['10_0xm3'], subCampaigns: [] },
      ],
    });
  });

  it('buildLinkedList marks self, drops test-token relatives unless test=true, keeps self always', () => {
    const rows = [
      row('0', -1, null, { token_is_test: true }),
      row('1', 0, null, { token_is_test: true }),
      row('2', 1, '1'),
    ];
    expect(
      buildLinkedList(rows, { test: false, excludeSubCampaigns: false }).map((n) => [n.campaignId, n.self]),
    ).to.deep.equal([
      ['1', true],
      ['2', false],
    ]);
    expect(buildLinkedList(rows, { test: true, excludeSubCampaigns: true }).map((n) => n.campaignId)).to.deep.equal([
      '0',
      '1',
    ]);
  });
});
