import { expect } from 'chai';
import { decodeRawParams, paramLabel, paramRows, rawCampaignData } from '../../../../web/explorer/campaignParams.js';

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

  it('reads the words of data the API leaves undecoded: a Morpho market id, a V4 pool id, an Ajna pool (#44)', () => {
    const id = `0x${'ab'.repeat(32)}`;
    const word = `0x${'0'.repeat(24)}${token.slice(2)}`;
    expect(decodeRawParams('MORPHO', id)).to.deep.equal({ marketId: id });
    expect(decodeRawParams('MORPHO', word)).to.deep.equal({ market: token });
    expect(decodeRawParams('UNISWAP_V4', `${id}${'cd'.repeat(32)}`)).to.deep.equal({
      poolId: id,
      furtherData: `0x${'cd'.repeat(32)}`,
    });
    expect(decodeRawParams('AJNA', word)).to.deep.equal({ pool: token });
    expect(decodeRawParams('SOMETHING', word)).to.deep.equal({ target: token });
    expect(decodeRawParams('SOMETHING', id), 'an unknown 32-byte value stays raw').to.equal(null);
    expect(decodeRawParams('MORPHO', '0x1234'), 'not whole words').to.equal(null);
    expect(paramRows({ raw: id, campaignData: id }, 'MORPHO')).to.deep.equal([
      { key: 'marketId', label: 'Market id', value: { kind: 'id', hex: id } },
    ]);
    expect(rawCampaignData({ raw: id })).to.equal(id);
  });
});
