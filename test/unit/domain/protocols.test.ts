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

  const token = (address: string, symbol: string, extra: Record<string, unknown> = {}) =>
    ({
      id: `31337-${address}`,
      name: `${symbol} token`,
      address,
      symbol,
      decimals: 18,
      icon: '',
      verified: true,
      is_native: false,
      is_test: false,
      type: 'TOKEN',
      is_stablecoin: false,
      price: null,
      price_source: null,
      price_updated_at: null,
      ...extra,
    }) as NonNullable<OpportunitySource['target']>;
  const [usdc, weth] = [`0x${'a'.repeat(40)}`, `0x${'b'.repeat(40)}`];
  const poolManager = `0x${'9'.repeat(40)}`;
  const morpho = `0x${'8'.repeat(40)}`;
  const marketId = `0x${'c'.repeat(64)}`;

  it('names a pool after its tokens and fee tier, a Morpho market after its loan and collateral tokens and LLTV (#42)', () => {
    const pool = { action: 'POOL', type: 'CLAMM', identifier: `0x${'1'.repeat(40)}`, target: null };
    const tokens = [
      { address: usdc, symbol: 'USDC' },
      { address: weth, symbol: 'WETH' },
    ];
    expect(opportunityName({ ...pool, underlying: { tokens, fee: 3000, lltv: null } })).to.equal(
      'Provide liquidity to USDC-WETH 0.3%',
    );
    expect(opportunityName({ ...pool, underlying: { tokens, fee: 100, lltv: null } })).to.equal(
      'Provide liquidity to USDC-WETH 0.01%',
    );
    expect(
      opportunityName({ ...pool, type: 'UNISWAP_V4', underlying: { tokens, fee: 0x800000, lltv: null } }),
      'a V4 dynamic fee',
    ).to.equal('Provide liquidity to USDC-WETH dynamic fee');
    // A token without a stored symbol (metadata unreadable) by its abbreviated address, not the pool's.
    expect(
      opportunityName({
        ...pool,
        underlying: { tokens: [tokens[0]!, { address: weth, symbol: null }], fee: 500, lltv: null },
      }),
    ).to.equal('Provide liquidity to USDC-0xbbbb…bbbb 0.05%');
    const market = { action: 'LEND', type: 'MORPHO', identifier: marketId, target: null };
    expect(opportunityName({ ...market, underlying: { tokens, fee: null, lltv: '860000000000000000' } })).to.equal(
      'Supply USDC to the USDC/WETH market (LLTV 86%)',
    );
    expect(opportunityName({ ...market, underlying: { tokens, fee: null, lltv: '945000000000000000' } })).to.equal(
      'Supply USDC to the USDC/WETH market (LLTV 94.5%)',
    );
    expect(
      opportunityName({ ...market, action: 'BORROW', underlying: { tokens, fee: null, lltv: '860000000000000000' } }),
    ).to.equal('Borrow USDC from the USDC/WETH market (LLTV 86%)');
    expect(opportunityName({ ...market, underlying: { tokens: [tokens[0]!], fee: null, lltv: '0' } })).to.equal(
      'Supply USDC to the idle USDC market',
    );
    // Not read yet (first run): the abbreviated identifier, as before.
    expect(opportunityName({ ...market, underlying: null })).to.equal('Supply 0xcccc…cccc');
  });

  it("lists a pool's tokens in order, searches them, and links the pool's page and its contract (#42)", () => {
    const doc = toOpportunityDocument(
      source({
        type: 'UNISWAP_V4',
        identifier: marketId,
        underlying: {
          fee: 3000,
          lltv: null,
          contract: poolManager,
          tokens: [
            { address: usdc, token: token(usdc, 'USDC', { is_stablecoin: true, display_symbol: 'USDC.e' }) },
            { address: weth, token: token(weth, 'WETH') },
          ],
        },
      }),
      'Arbitrum One',
      150,
    )!;
    expect(doc.name).to.equal('Provide liquidity to USDC-WETH 0.3%');
    expect(doc.tokens.map((t) => [t.symbol, t.address, t.displaySymbol])).to.deep.equal([
      ['USDC', usdc, 'USDC.e'],
      ['WETH', weth, undefined],
    ]);
    expect(doc.stablecoin, 'one of its tokens is a stablecoin').to.equal(true);
    expect(doc.searchText).to.include('weth token').and.include('usdc');
    expect(doc.explorerAddress, 'the PoolManager, not the pool id').to.equal(poolManager);
    expect(doc.depositUrl).to.equal(`https://app.uniswap.invalid/explore/pools/arbitrum-one/${marketId}`);
  });

  it("gives a pool or market its protocol's page as deposit link unless the campaign data carries a url (#42)", () => {
    const url = (o: Partial<OpportunitySource>) => toOpportunityDocument(source(o), 'Ethereum', 150)!.depositUrl;
    const pool = `0x${'1'.repeat(40)}`;
    expect(url({})).to.equal(`https://app.uniswap.invalid/explore/pools/ethereum/${pool}`);
    expect(url({ type: 'MORPHO', action: 'LEND', identifier: marketId })).to.equal(
      `https://app.morpho.invalid/ethereum/market/${marketId}`,
    );
    expect(url({ type: 'MORPHO', action: 'LEND', identifier: pool }), 'a MetaMorpho vault').to.equal(
      `https://app.morpho.invalid/ethereum/vault/${pool}`,
    );
    expect(url({ type: 'UNISWAP_V4', identifier: pool }), 'a V4 identifier that is no pool id').to.equal('');
    expect(url({ type: 'ERC20', action: 'HOLD' }), 'no protocol').to.equal('');
    const withUrl = source().campaigns.map((c) => ({ ...c, params: { url: 'https://pool.example/deposit' } }));
    expect(url({ campaigns: withUrl }), "the campaign data's own url wins").to.equal('https://pool.example/deposit');
    // Before the metrics job read a market, no explorer address: a market id is not an address.
    const market = toOpportunityDocument(
      source({ type: 'MORPHO', action: 'LEND', identifier: marketId }),
      'Ethereum',
      150,
    )!;
    expect([market.explorerAddress, market.tokens]).to.deep.equal(['', []]);
    const read = toOpportunityDocument(
      source({
        type: 'MORPHO',
        action: 'LEND',
        identifier: marketId,
        underlying: {
          fee: null,
          lltv: '860000000000000000',
          contract: morpho,
          tokens: [
            { address: usdc, token: token(usdc, 'USDC') },
            { address: weth, token: null },
          ],
        },
      }),
      'Ethereum',
      150,
    )!;
    expect(read.name).to.equal('Supply USDC to the USDC/0xbbbb…bbbb market (LLTV 86%)');
    expect(read.explorerAddress).to.equal(morpho);
    expect(
      read.tokens.map((t) => t.symbol),
      'stored tokens only',
    ).to.deep.equal(['USDC']);
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
