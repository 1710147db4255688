import { expect } from 'chai';
import { CAMPAIGN_TYPE_NAMES, OPPORTUNITY_ACTIONS } from '../../../../../domain/campaignTypes.js';
import { ENUMS, findEnum } from '../../../../../api/reads/enums/registry.js';
import { convertEnumValue, serializeEnum, serializeEnumSummary } from '../../../../../api/routes/enums/serialize.js';

describe('api/routes/enums registry and serializers', () => {
  const campaignType = findEnum('campaigntype')!;

  it('lists the nine enums with their types, built from the shared constants', () => {
    expect(ENUMS.map((e) => e.name)).to.deep.equal([
      'CampaignType',
      'DistributionType',
      'OpportunityAction',
      'OpportunityStatus',
      'CampaignStatus',
      'RunStatus',
      'TokenType',
      'StoreType',
      'ExplorerType',
    ]);
    expect(campaignType.entries.map((e) => e.value)).to.deep.equal(Object.keys(CAMPAIGN_TYPE_NAMES).map(Number));
    expect(findEnum('OpportunityAction')!.entries.map((e) => e.key)).to.deep.equal([...OPPORTUNITY_ACTIONS]);
    expect(findEnum('StoreType')!.entries.map((e) => e.key)).to.deep.equal([
      'WHITELIST',
      'BLACKLIST',
      'BOOST',
      'REFERRER',
      'FORWARDER',
      'APR',
    ]);
    expect(findEnum('nope')).to.equal(undefined);
  });

  it('summarises type and hasMetadata', () => {
    expect(serializeEnumSummary(campaignType)).to.deep.equal({
      name: 'CampaignType',
      type: 'number',
      hasMetadata: false,
    });
    expect(serializeEnumSummary(findEnum('StoreType')!)).to.deep.equal({
      name: 'StoreType',
      type: 'string',
      hasMetadata: true,
    });
    expect(serializeEnum(findEnum('RunStatus')!).entries).to.deep.equal(
      ['PROCESSING', 'SUCCESS', 'FAILED', 'SKIPPED'].map((k) => ({ key: k, value: k })),
    );
  });

  it('converts numbers to names and names (any case) to numbers', () => {
    expect(convertEnumValue(campaignType, '18')).to.deep.equal({ input: '18', output: 'ERC20REBASELOGPROCESSOR' });
    expect(convertEnumValue(campaignType, 2)).to.deep.equal({ input: 2, output: 'CLAMM' });
    expect(convertEnumValue(campaignType, 'clamm')).to.deep.equal({ input: 'clamm', output: 2 });
    expect(convertEnumValue(findEnum('TokenType')!, 'pretge')).to.deep.equal({
      input: 'pretge',
      output: 'PRETGE',
      description: 'Pre-TGE token',
    });
  });

  it('returns null for a value outside the enum', () => {
    expect(convertEnumValue(campaignType, '999')).to.equal(null);
    expect(convertEnumValue(campaignType, 'NOPE')).to.equal(null);
    expect(convertEnumValue(findEnum('TokenType')!, '1')).to.equal(null);
  });
});
