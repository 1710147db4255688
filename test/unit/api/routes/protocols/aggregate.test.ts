import { expect } from 'chai';
import { protocolCatalogue, registeredProtocols } from '../../../../../domain/protocols.js';
import { aggregateProtocols } from '../../../../../api/reads/protocols/aggregate.js';
import type { OpportunityFacts } from '../../../../../api/reads/protocols/repo.js';
import type { ListProtocolsQuery } from '../../../../../api/reads/protocols/schema.js';
import { serializeProtocol } from '../../../../../api/reads/protocols/serialize.js';

const opp = (over: Partial<OpportunityFacts>): OpportunityFacts => ({
  id: '1',
  chainId: 1,
  type: 'MORPHO',
  mainProtocolId: null,
  isTestChain: false,
  status: 'LIVE',
  dailyRewards: 10,
  liveCampaigns: 3,
  liveRootCampaigns: 2,
  tokenTypes: ['TOKEN'],
  tags: [],
  ...over,
});
const q = (over: Partial<ListProtocolsQuery> = {}): ListProtocolsQuery => ({
  page: 0,
  items: 20,
  test: false,
  excludeSubCampaigns: false,
  ...over,
});

const facts = [
  opp({ id: 'a' }),
  opp({
    id: 'b',
    dailyRewards: 5,
    chainId: 2,
    status: 'PAST',
    liveCampaigns: 0,
    liveRootCampaigns: 0,
    tokenTypes: ['POINT'],
  }),
  opp({ id: 'c', type: 'CLAMM', dailyRewards: 100, isTestChain: true }),
  opp({ id: 'd', type: 'ERC20', dailyRewards: 1000 }),
];

describe('api/routes/protocols/aggregate aggregateProtocols', () => {
  const figures = (res: { id: string; dailyRewards: number; numberOfLiveCampaigns: number }[]) =>
    res.filter((p) => p.dailyRewards > 0).map((p) => [p.id, p.dailyRewards, p.numberOfLiveCampaigns]);

  it('lists every protocol of the catalogue, with the sums of its opportunities (types without a protocol and test chains skipped)', () => {
    const res = aggregateProtocols(facts, q());
    expect(figures(res)).to.deep.equal([['morpho', 15, 3]]);
    expect(res.map((p) => p.id).sort()).to.deep.equal(
      registeredProtocols()
        .map((p) => p.id)
        .sort(),
    );
    expect(res.find((p) => p.id === 'uniswap-v3')).to.include({ dailyRewards: 0, numberOfLiveCampaigns: 0 });
  });

  it('includes test chains with test=true, sorted by daily rewards', () => {
    expect(figures(aggregateProtocols(facts, q({ test: true }))).map(([id]) => id)).to.deep.equal([
      'uniswap-v3',
      'morpho',
    ]);
  });

  it('counts an opportunity for the protocol the back office set on it, and lists added protocols', () => {
    const acme = { id: 'acme', name: 'Acme', icon: 'i', description: 'd', url: 'https://acme.example', tags: ['dex'] };
    const catalogue = protocolCatalogue(new Map([['morpho', { name: 'Morpho Blue' }]]), [acme]);
    const moved = [...facts, opp({ id: 'e', type: 'ERC20', mainProtocolId: 'acme', dailyRewards: 7 })];
    const res = aggregateProtocols(moved, q(), catalogue);
    expect(figures(res)).to.deep.equal([
      ['morpho', 15, 3],
      ['acme', 7, 3],
    ]);
    expect(res.find((p) => p.id === 'morpho')!.name).to.equal('Morpho Blue');
    expect(aggregateProtocols(facts, q({ tags: ['dex'] }), catalogue).map((p) => p.id)).to.deep.equal([
      'acme',
      'uniswap-v3',
      'uniswap-v4',
    ]);
  });

  it('applies opportunity filters before aggregating', () => {
    expect(aggregateProtocols(facts, q({ opportunityChain: 2 }))[0]!.dailyRewards).to.equal(5);
    expect(aggregateProtocols(facts, q({ status: 'LIVE' }))[0]!.dailyRewards).to.equal(10);
    expect(aggregateProtocols(facts, q({ tokenTypes: ['POINT'] }))[0]!.dailyRewards).to.equal(5);
    expect(aggregateProtocols(facts, q({ opportunityTag: 'x' }))).to.deep.equal([]);
  });

  it('counts only root campaigns with excludeSubCampaigns', () => {
    expect(aggregateProtocols(facts, q({ excludeSubCampaigns: true }))[0]!.numberOfLiveCampaigns).to.equal(2);
  });

  it('filters protocols by id, ids, name and tags, and pages', () => {
    const all = q({ test: true });
    expect(aggregateProtocols(facts, { ...all, id: 'morpho' }).map((p) => p.id)).to.deep.equal(['morpho']);
    expect(aggregateProtocols(facts, { ...all, ids: ['uniswap-v3', 'x'] }).map((p) => p.id)).to.deep.equal([
      'uniswap-v3',
    ]);
    expect(aggregateProtocols(facts, { ...all, name: 'MORPH' }).map((p) => p.id)).to.deep.equal(['morpho']);
    expect(aggregateProtocols(facts, { ...all, tags: ['dex'] }).map((p) => p.id)).to.deep.equal([
      'uniswap-v3',
      'uniswap-v4',
    ]);
    expect(aggregateProtocols(facts, { ...all, items: 1, page: 1 }).map((p) => p.id)).to.deep.equal(['morpho']);
    expect(aggregateProtocols(facts, { ...all, items: 2, page: 1, status: 'LIVE' })).to.deep.equal([]);
  });

  it('serializes every protocol field with null banners and trustData', () => {
    const p = serializeProtocol(aggregateProtocols(facts, q())[0]!);
    expect(Object.keys(p)).to.have.members([
      'id',
      'name',
      'icon',
      'description',
      'url',
      'tags',
      'dailyRewards',
      'numberOfLiveCampaigns',
      'opportunityLiveTags',
      'banner',
      'opportunityBannerLight',
      'opportunityBannerDark',
      'trustData',
    ]);
    expect(p).to.include({ banner: null, opportunityBannerLight: null, opportunityBannerDark: null, trustData: null });
  });
});
