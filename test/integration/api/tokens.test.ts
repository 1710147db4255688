import { expect } from 'chai';
import { createReferenceDemo, type ReferenceDemo } from './referenceDemo.js';

type Token = Record<string, unknown> & {
  id: string;
  symbol: string;
  address: string;
  price: number | null;
  chainId: number;
};

const TOKEN_FIELDS = [
  'id',
  'name',
  'chainId',
  'address',
  'decimals',
  'symbol',
  'icon',
  'verified',
  'isNative',
  'isTest',
  'type',
  'price',
  'updatedAt',
  'priceSource',
  'displaySymbol',
  'priceAlertCount',
];

describe('GET /v4/tokens on the seeded demo (reference data)', function () {
  let demo: ReferenceDemo;
  const ids: Record<string, string> = {};
  const addresses: Record<string, string> = {};
  let unstored: string;

  const list = async (query: Record<string, unknown>) =>
    (await demo.h.request().get('/v4/tokens/').query(query).expect(200)).body as Token[];
  const symbols = (tokens: Token[]) => tokens.map((t) => t.symbol).sort();
  const fieldsOf400 = async (query: Record<string, unknown>) =>
    ((await demo.h.request().get('/v4/tokens').query(query).expect(400)).body.errors as { field: string }[])
      .map((e) => e.field)
      .sort();

  before(async function () {
    this.timeout(600_000);
    demo = await createReferenceDemo();
    const pg = demo.h.deps.pg;
    // Operator state the demo does not set: an icon, a test token, a stale price, a token never stored.
    await pg.query(`UPDATE tokens SET icon = 'https://icons.invalid/rwd.svg' WHERE symbol = 'RWD'`);
    await pg.query(`UPDATE tokens SET is_test = true WHERE symbol = 'PTS'`);
    await pg.query(
      `UPDATE token_prices SET updated_at = now() - interval '2 days' WHERE token_id = (SELECT id FROM tokens WHERE symbol = 'GLPx')`,
    );
    const { rows } = await pg.query<{ id: string; symbol: string; address: string }>(
      'SELECT id, symbol, address FROM tokens',
    );
    for (const r of rows) (ids[r.symbol] = r.id), (addresses[r.symbol] = r.address);
    unstored = addresses['GHOx']!;
    await pg.query(`DELETE FROM tokens WHERE symbol = 'GHOx'`);
  });

  after(async () => demo?.close());

  it('serves every Token field, with the fresh price from token_prices', async function () {
    const [rwd] = await list({ symbol: 'RWD' });
    expect(rwd).to.include.all.keys(...TOKEN_FIELDS);
    const { rows } = await demo.h.deps.pg.query<{ price: number; price_source: string; updated_at: Date }>(
      'SELECT price, price_source, updated_at FROM token_prices WHERE token_id = $1',
      [ids['RWD']],
    );
    expect(rwd).to.deep.include({
      id: ids['RWD'],
      chainId: 31337,
      address: addresses['RWD'],
      symbol: 'RWD',
      name: 'Reward Token',
      decimals: 18,
      verified: true,
      isNative: false,
      isTest: false,
      type: 'TOKEN',
      icon: 'https://icons.invalid/rwd.svg',
      displaySymbol: 'RWD',
      price: rows[0]!.price,
      priceSource: rows[0]!.price_source,
      updatedAt: Math.floor(rows[0]!.updated_at.getTime() / 1000),
      priceAlertCount: 0,
    });
    expect(rwd).not.to.have.any.keys('underlyingTokenId', 'is_test', 'display_symbol');
  });

  it('serves a stale price as null, keeping updatedAt and priceSource', async function () {
    const [glp] = await list({ symbol: 'GLPx' });
    expect(glp!.price).to.equal(null);
    expect(glp!.priceSource).to.be.a('string');
    expect(glp!.updatedAt).to.be.below(Date.now() / 1000 - 86_400);
  });

  it('resolves several ids at once with id, and one id alone', async function () {
    expect(symbols(await list({ id: [ids['RWD'], ids['USDCx']] }))).to.deep.equal(['RWD', 'USDCx']);
    expect(symbols(await list({ id: ids['PTS'] }))).to.deep.equal(['PTS']);
    expect(await list({ id: '1' })).to.deep.equal([]);
    expect(await fieldsOf400({ id: 'abc' })).to.deep.equal(['id.0']);
  });

  it('filters by symbol and displaySymbol, case-insensitively', async function () {
    expect(symbols(await list({ symbol: 'rwd' }))).to.deep.equal(['RWD']);
    expect(await list({ symbol: 'RW' })).to.deep.equal([]);
    expect(symbols(await list({ displaySymbol: 'usdc' }))).to.deep.equal(['USDCx']);
    expect(await list({ displaySymbol: 'USDCx' })).to.deep.equal([]);
  });

  it('filters by chainId, isNative and address', async function () {
    expect((await list({ chainId: '31337', items: 100 })).length).to.equal(19);
    expect(await list({ chainId: 999 })).to.deep.equal([]);
    expect(symbols(await list({ isNative: true }))).to.deep.equal(['ETH']);
    expect((await list({ isNative: false, items: 100 })).map((t) => t.symbol)).not.to.include('ETH');
    expect(symbols(await list({ address: addresses['RWD']!.toUpperCase().replace('0X', '0x') }))).to.deep.equal([
      'RWD',
    ]);
    expect(await list({ address: `0x${'1'.repeat(40)}` })).to.deep.equal([]);
    expect(await fieldsOf400({ chainId: 'mainnet', isNative: 'yes', address: '0x12' })).to.deep.equal([
      'address',
      'chainId',
      'isNative',
    ]);
  });

  it('filters by name (substring) and search (anywhere in symbol or name, prefix of the address)', async function () {
    expect(symbols(await list({ name: 'reward tok' }))).to.deep.equal(['RWD']);
    expect(await list({ name: 'nothing like it' })).to.deep.equal([]);
    expect(symbols(await list({ search: 'wbt' }))).to.deep.equal(['wBTCx']);
    expect(symbols(await list({ search: 'demo st' }))).to.deep.equal(['stETHx']);
    expect(symbols(await list({ search: addresses['RWD']!.slice(0, 12) }))).to.deep.equal(['RWD']);
    expect(symbols(await list({ search: 'BTCx' }))).to.deep.equal(['wBTCx']);
    // As a person expects: USD anywhere in the symbol or the name, not only at its start.
    expect(symbols(await list({ search: 'USD', items: 100 }))).to.include.members([
      'crvUSDx',
      'LUSDx',
      'sUSDx',
      'PYUSDx',
      'USDCx',
      'USDex',
    ]);
    expect(await list({ search: addresses['RWD']!.slice(4, 16) })).to.deep.equal([]);
    expect(await fieldsOf400({ search: '' })).to.deep.equal(['search']);
  });

  it('filters by verified, test, missingIcons and missingPrice', async function () {
    expect(symbols(await list({ verified: true }))).to.deep.equal(['ETH', 'RWD', 'USDCx']);
    expect((await list({ verified: false, items: 100 })).every((t) => t['verified'] === false)).to.equal(true);
    expect((await list({ items: 100 })).map((t) => t.symbol)).not.to.include('PTS');
    expect((await list({ test: true, items: 100 })).map((t) => t.symbol)).to.include('PTS');
    expect(symbols(await list({ missingIcons: false }))).to.deep.equal(['RWD']);
    expect((await list({ missingIcons: true, items: 100 })).map((t) => t.symbol)).not.to.include('RWD');
    expect(symbols(await list({ missingPrice: true, items: 100 }))).to.deep.equal(['ETH', 'GLPx', 'preTGE']);
    expect((await list({ missingPrice: false, items: 100 })).every((t) => t.price !== null)).to.equal(true);
    expect(await fieldsOf400({ verified: 'sure', test: 2, missingIcons: 'x', missingPrice: 'y' })).to.deep.equal([
      'missingIcons',
      'missingPrice',
      'test',
      'verified',
    ]);
  });

  it('pages with page and items', async function () {
    const all = await list({ items: 100 });
    const page = await list({ items: 5, page: 1 });
    expect(page).to.deep.equal(all.slice(5, 10));
    expect(await fieldsOf400({ items: 1000, page: -1 })).to.deep.equal(['items', 'page']);
  });

  it('reads an address unknown to the database from the chain, with a temporary id', async function () {
    const [token] = await list({ chainId: 31337, search: unstored });
    expect(token).to.deep.include({
      id: `tmp-31337-${unstored}`,
      symbol: 'GHOx',
      name: 'Demo GHOx',
      decimals: 18,
      chainId: 31337,
      address: unstored,
      price: null,
    });
    const { rows } = await demo.h.deps.pg.query('SELECT 1 FROM tokens WHERE address = $1', [unstored]);
    expect(rows, 'not stored').to.have.length(0);
  });

  it('returns nothing for an unknown address without contract code, or without chainId', async function () {
    expect(await list({ chainId: 31337, search: `0x${'2'.repeat(40)}` })).to.deep.equal([]);
    expect(await list({ search: unstored })).to.deep.equal([]);
  });

  describe('GET /v4/tokens/{id}', function () {
    it('returns one token', async function () {
      const res = await demo.h.request().get(`/v4/tokens/${ids['USDCx']}`).expect(200);
      expect(res.body).to.include({ id: ids['USDCx'], symbol: 'USDCx', displaySymbol: 'USDC' });
    });

    it('answers 400 for a temporary id and 404 for an unknown one', async function () {
      const tmp = await demo.h.request().get(`/v4/tokens/tmp-31337-${unstored}`).expect(400);
      expect(tmp.headers['content-type']).to.match(/application\/problem\+json/);
      expect(tmp.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['id']);
      const missing = await demo.h.request().get('/v4/tokens/123').expect(404);
      expect(missing.body).to.include({ status: 404 });
      const bad = await demo.h.request().get('/v4/tokens/not-an-id').expect(400);
      expect(bad.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['id']);
    });
  });
});
