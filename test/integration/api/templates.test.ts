import { expect } from 'chai';
import { createHarness, type Harness } from '../../helpers/harness.js';

type Template = {
  id: string;
  action: string;
  protocolId?: string;
  baseConfig: Record<string, unknown>;
  completionConfig: Record<string, unknown>;
};

describe('GET /v4/templates and /v4/schemas (static registries)', function () {
  let h: Harness;
  before(async function () {
    h = await createHarness({ chainIds: [31337] });
  });
  after(async () => h?.close());

  const templates = async (query: Record<string, unknown>) =>
    ((await h.request().get('/v4/templates/').query(query).expect(200)).body as Template[]).map((t) => t.id);

  it('lists one template per campaign type we encode, with every Template field', async function () {
    const res = (await h.request().get('/v4/templates').expect(200)).body as Template[];
    expect(res.map((t) => t.id)).to.deep.equal(['erc20-hold', 'clamm-pool', 'morpho-lend', 'ajna-borrow']);
    expect(res[1]).to.have.all.keys(
      'id',
      'name',
      'description',
      'baseConfig',
      'completionConfig',
      'protocolId',
      'protocol',
      'action',
    );
    expect(res[1]).to.deep.include({ protocolId: 'uniswap-v3', action: 'POOL' });
    expect(res[1]!.baseConfig).to.include({ campaignType: 2 });
    expect(res[1]!.completionConfig).to.have.all.keys('rewardToken', 'amount', 'startTimestamp', 'duration', 'pool');
    expect(res[0]).not.to.have.any.keys('protocolId', 'protocol');
  });

  it('filters by protocolId, search and action (any of)', async function () {
    expect(await templates({ protocolId: 'morpho' })).to.deep.equal(['morpho-lend']);
    expect(await templates({ protocolId: 'aave' })).to.deep.equal([]);
    expect(await templates({ search: 'CONCENTRATED' })).to.deep.equal(['clamm-pool']);
    expect(await templates({ search: 'perpetuals' })).to.deep.equal([]);
    expect(await templates({ action: ['LEND', 'BORROW'] })).to.deep.equal(['morpho-lend', 'ajna-borrow']);
    expect(await templates({ action: 'SWAP' })).to.deep.equal([]);
  });

  it('pages with page and items', async function () {
    expect(await templates({ items: 2, page: 1 })).to.deep.equal(['morpho-lend', 'ajna-borrow']);
    expect(await templates({ items: 2, page: 2 })).to.deep.equal([]);
  });

  it('answers 400 naming each bad template field', async function () {
    const res = await h.request().get('/v4/templates').query({ action: 'FARM', items: 0, search: '' }).expect(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).to.deep.equal([
      'action.0',
      'items',
      'search',
    ]);
  });

  it('lists the six schema groups, each binding an enum to JSON Schemas (draft 2020-12)', async function () {
    const res = (await h.request().get('/v4/schemas/').expect(200)).body as {
      name: string;
      enum: string[];
      schemas: Record<string, Record<string, unknown>>;
    }[];
    expect(res.map((g) => g.name)).to.deep.equal([
      'campaignType',
      'campaignTypeExtended',
      'distributionMethod',
      'computeScoreMethod',
      'hookType',
      'processorType',
    ]);
    for (const g of res) {
      expect(Object.keys(g.schemas), g.name).to.deep.equal(g.enum);
      for (const s of Object.values(g.schemas))
        expect(s['$schema']).to.equal('https://json-schema.org/draft/2020-12/schema');
    }
    const [type, extended] = res;
    expect(type!.schemas['CLAMM']!['properties'] as object).to.have.property('pool');
    expect(extended!.schemas['ERC20']!['required']).to.include.members([
      'targetToken',
      'distributionChainId',
      'campaignId',
    ]);
  });

  it('answers 400 for any schemas parameter', async function () {
    const res = await h.request().get('/v4/schemas').query({ group: 'campaignType' }).expect(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['group']);
  });
});
