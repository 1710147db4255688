import { expect } from 'chai';
import { opportunityName, toOpportunityDocument } from '../../../domain/documents/opportunityDocument.js';
import { opportunityStatus } from '../../../domain/documents/campaignSummary.js';
import { protocolOf } from '../../../domain/protocols.js';
import type { OpportunitySource } from '../../../domain/documents/sources.js';

const source = (overrides: Partial<OpportunitySource> = {}): OpportunitySource => ({
  id: '42',
  chain_id: 31337,
  type: 'CLAMM',
  identifier: '0x1111111111111111111111111111111111111111',
  action: 'POOL',
  tags: [],
  program_slugs: [],
  target: null,
  metrics: null,
  campaigns: [
    {
      id: '1',
      campaign_id: `0x${'ab'.repeat(32)}`,
      creator: '0xcc',
      reward_token: '0xdd',
      reward_symbol: 'RWD',
      reward_type: 'TOKEN',
      amount: '10',
      campaign_type: 2,
      start_timestamp: '100',
      end_timestamp: '200',
      params: {},
      created_at: new Date(50_000),
    },
  ],
  ...overrides,
});

describe('domain/protocols and opportunity documents', () => {
  it('names the protocol of protocol-specific campaign types, none for token holding', () => {
    expect(protocolOf('CLAMM')).to.include({ id: 'uniswap-v3', name: 'Uniswap V3' });
    expect(protocolOf('MORPHO')).to.include({ id: 'morpho' });
    expect(protocolOf('ERC20')).to.equal(null);
  });

  it('puts the protocol on the opportunity document as mainProtocol and protocol', () => {
    const doc = toOpportunityDocument(source(), 'Devnet', 150)!;
    expect(doc.mainProtocol).to.equal('uniswap-v3');
    expect(doc.protocol).to.include({ id: 'uniswap-v3', trustData: null });
    expect(toOpportunityDocument(source({ type: 'ERC20', action: 'HOLD' }), 'Devnet', 150)!.protocol).to.equal(null);
  });

  it('derives status from the campaign windows at a given time', () => {
    const windows = [
      { start: 100, end: 200 },
      { start: 300, end: 400 },
    ];
    expect(opportunityStatus(windows, 50)).to.deep.equal({ status: 'SOON', liveCampaigns: 0 });
    expect(opportunityStatus(windows, 150)).to.deep.equal({ status: 'LIVE', liveCampaigns: 1 });
    expect(opportunityStatus(windows, 250)).to.deep.equal({ status: 'SOON', liveCampaigns: 0 });
    expect(opportunityStatus(windows, 400)).to.deep.equal({ status: 'PAST', liveCampaigns: 0 });
    expect(opportunityStatus([], 400)).to.deep.equal({ status: 'NONE', liveCampaigns: 0 });
  });

  it('names an opportunity after its action and target, and drops one without campaigns', () => {
    expect(
      opportunityName({
        action: 'HOLD',
        type: 'ERC20',
        identifier: '0x1111111111111111111111111111111111111111',
        target: { symbol: 'stTST' } as never,
      }),
    ).to.equal('Hold stTST');
    expect(
      opportunityName({
        action: 'INVALID',
        type: 'TYPE_77',
        identifier: '0x1111111111111111111111111111111111111111',
        target: null,
      }),
    ).to.equal('TYPE_77 0x1111…1111');
    expect(toOpportunityDocument(source({ campaigns: [] }), 'Devnet', 150)).to.equal(null);
  });
});

describe('domain/documents/campaignSummary mergeWindows', () => {
  it('merges overlapping and touching windows into disjoint sorted intervals', async () => {
    const { mergeWindows } = await import('../../../domain/documents/campaignSummary.js');
    expect(
      mergeWindows([
        { start: 50, end: 60 },
        { start: 10, end: 20 },
        { start: 15, end: 30 },
        { start: 30, end: 40 },
      ]),
    ).to.deep.equal([
      { start: 10, end: 40 },
      { start: 50, end: 60 },
    ]);
    expect(mergeWindows([])).to.deep.equal([]);
    const many = Array.from({ length: 100_000 }, (_, i) => ({ start: 1000 + i, end: 1000 + i + 86_400 }));
    expect(mergeWindows(many)).to.deep.equal([{ start: 1000, end: 1000 + 99_999 + 86_400 }]);
  });
});
