import { expect } from 'chai';
import { paramLabel, paramRows, rawCampaignData } from '../../../../web/explorer/campaignParams.js';

const token = '0x663f3ad617193148711d28f5334ee4ed07016602';

describe('web/explorer/campaignParams', () => {
  it('labels keys in words', () => {
    expect(paramLabel('targetToken')).to.equal('Target token');
    expect(paramLabel('isOutOfRangeIncentivized')).to.equal('Is out of range incentivized');
    expect(paramLabel('url')).to.equal('URL');
  });

  it('shows the decoded parameters, what the campaign is on first, without the raw encoding', () => {
    const params = {
      url: '',
      hooks: [],
      extraData: '0x12ab',
      whitelist: [token],
      weightFees: 3000,
      isOutOfRangeIncentivized: 0,
      targetToken: token,
      campaignData: '0xdeadbeef',
    };
    expect(paramRows(params)).to.deep.equal([
      { key: 'targetToken', label: 'Target token', value: { kind: 'address', address: token } },
      { key: 'url', label: 'URL', value: { kind: 'text', text: 'none' } },
      { key: 'hooks', label: 'Hooks', value: { kind: 'text', text: 'none' } },
      { key: 'extraData', label: 'Extra data', value: { kind: 'text', text: '0x12ab', mono: true } },
      { key: 'whitelist', label: 'Whitelist', value: { kind: 'list', items: [{ kind: 'address', address: token }] } },
      { key: 'weightFees', label: 'Weight fees', value: { kind: 'text', text: '30%' } },
      { key: 'isOutOfRangeIncentivized', label: 'Is out of range incentivized', value: { kind: 'text', text: 'no' } },
    ]);
    expect(rawCampaignData(params)).to.equal('0xdeadbeef');
    expect(rawCampaignData({ campaignData: '0x' })).to.equal(null);
    expect(paramRows(null)).to.deep.equal([]);
  });
});
