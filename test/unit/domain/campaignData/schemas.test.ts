import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { encodeClammCampaignData, encodeErc20CampaignData } from '../../../../contracts/actions.js';
import { decodeCampaignData } from '../../../../domain/campaignData/decodeCampaignData.js';
import { abiTypeSchema, campaignDataSchema, SCHEMA_GROUPS } from '../../../../domain/campaignData/schemas.js';

const ajv = new Ajv2020({ strict: true, allErrors: true });
const TOKEN = '0x00000000000000000000000000000000000000a1';

describe('domain/campaignData/schemas', () => {
  it('every schema of every group compiles as draft 2020-12', () => {
    for (const g of SCHEMA_GROUPS)
      for (const [value, schema] of Object.entries(g.schemas))
        expect(() => ajv.compile(schema), `${g.name}.${value}`).not.to.throw();
  });

  it('accepts what the decoder returns for ERC20 and CLAMM data (schemas derived from layouts.ts)', () => {
    const erc20 = decodeCampaignData(1, encodeErc20CampaignData({ targetToken: TOKEN }));
    expect(ajv.validate(campaignDataSchema('ERC20'), erc20.params), JSON.stringify(ajv.errors)).to.equal(true);
    const clamm = decodeCampaignData(
      2,
      encodeClammCampaignData({
        pool: TOKEN,
        weightFees: 2000,
        weightToken0: 4000,
        weightToken1: 4000,
        isOutOfRangeIncentivized: true,
      }),
    );
    expect(ajv.validate(campaignDataSchema('CLAMM'), clamm.params), JSON.stringify(ajv.errors)).to.equal(true);
    expect(ajv.validate(campaignDataSchema('MORPHO'), decodeCampaignData(7, '0x1234').params)).to.equal(true);
  });

  it('rejects bad inputs: missing target, bad address, out-of-range weight, unknown field', () => {
    expect(ajv.validate(campaignDataSchema('ERC20'), {})).to.equal(false);
    expect(ajv.validate(campaignDataSchema('ERC20'), { targetToken: '0x12' })).to.equal(false);
    expect(
      ajv.validate(campaignDataSchema('CLAMM'), {
        pool: TOKEN,
        weightFees: -1,
        weightToken0: 0,
        weightToken1: 0,
        isOutOfRangeIncentivized: 0,
      }),
    ).to.equal(false);
    expect(ajv.validate(campaignDataSchema('ERC20'), { targetToken: TOKEN, extra: 1 })).to.equal(false);
  });

  it('the extended group requires distributionChainId and campaignId', () => {
    const ext = SCHEMA_GROUPS.find((g) => g.name === 'campaignTypeExtended')!.schemas['ERC20']!;
    expect(ajv.validate(ext, { targetToken: TOKEN })).to.equal(false);
    expect(
      ajv.validate(ext, { targetToken: TOKEN, distributionChainId: 1, campaignId: `0x${'1'.repeat(64)}` }),
    ).to.equal(true);
  });

  it('abiTypeSchema refuses types it cannot describe', () => {
    expect(() => abiTypeSchema('uint256')).to.throw(/uint256/);
    expect(abiTypeSchema('address[]')).to.deep.include({ type: 'array' });
  });
});
