import { expect } from 'chai';
import { signSession } from '../../../api/identity/jwt.js';
import { NO_PROTOCOL_KEY, protocolOf } from '../../../domain/protocols.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';
import { seedCampaigns, seedCampaignsSpec, X, type SeedCampaign } from '../../fixtures/api/campaigns/seed.js';

type Listed = { id: string; computeChainId: number; type: string; createdAt: string };
type Headers = Record<string, string>;

/** Pure: the list's campaigns counted per key (keys that are null are left out). */
function countBy(list: Listed[], key: (c: Listed) => string | null | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of list) {
    const k = key(c);
    if (k != null) out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}
const month = (c: Listed) => new Date(c.createdAt).toISOString().slice(0, 7);
const KEYS = {
  chains: (c: Listed) => String(c.computeChainId),
  types: (c: Listed) => c.type,
  // Campaigns without a protocol under `none`, as the distributed totals count them (issue 42).
  protocols: (c: Listed) => protocolOf(c.type)?.id ?? NO_PROTOCOL_KEY,
} as const;

describe('GET /v4/campaigns/count and /count/by-{chains,types,protocols} (issue 33)', function () {
  let h: Harness;
  let s: Record<string, SeedCampaign>;
  let creator: Headers;
  const anonymous: Headers = {};
  const backOffice: Headers = { authorization: TEST_BACK_OFFICE_TOKEN };

  before(async function () {
    h = await createHarness();
    s = seedCampaignsSpec(Math.floor(Date.now() / 1000));
    await seedCampaigns(h, s);
    creator = { Cookie: `jwt=${signSession({ secret: h.config.jwtSecret, address: X, tier: 0 }).token}` };
  });

  after(async () => h?.close());

  /** Every campaign GET /v4/campaigns lists for the query (one page holds them all in this seed). */
  async function listed(query: Record<string, string>, headers: Headers): Promise<Listed[]> {
    const res = await h
      .request()
      .get('/v4/campaigns')
      .query({ items: 100, ...query })
      .set(headers)
      .expect(200);
    expect(res.body.length).to.be.below(100);
    return res.body;
  }
  const get = async (path: string, query: Record<string, string>, headers: Headers) =>
    (await h.request().get(path).query(query).set(headers).expect(200)).body;

  const QUERIES: Record<string, string>[] = [
    {},
    { test: 'true' },
    { chainId: '31338' },
    { status: 'LIVE', test: 'true' },
    { types: 'ERC20,JSON_AIRDROP' },
    { creatorAddress: X, test: 'true' },
    { search: 'zzzz' },
  ];
  const CALLERS: [string, () => Headers, string][] = [
    ['a stranger', () => anonymous, 'false'],
    ['a stranger asking for private campaigns', () => anonymous, 'true'],
    ["the private campaign's creator", () => creator, 'true'],
    ['the back office', () => backOffice, 'true'],
  ];

  for (const [caller, headers, showPrivate] of CALLERS) {
    it(`counts what the list lists for ${caller}, in total, per key and per creation month`, async function () {
      for (const base of QUERIES) {
        const query = { ...base, showPrivate };
        const list = await listed(query, headers());
        const where = JSON.stringify(query);
        expect(await get('/v4/campaigns/count', query, headers()), where).to.equal(list.length);
        expect(await get('/v4/campaigns/count/', { ...query, grain: 'month' }, headers()), where).to.deep.equal(
          countBy(list, month),
        );
        for (const [group, key] of Object.entries(KEYS)) {
          const path = `/v4/campaigns/count/by-${group}`;
          const counts = await get(path, query, headers());
          expect(counts, `${path} ${where}`).to.deep.equal(countBy(list, key));
          const sum = Object.values(counts as Record<string, number>).reduce((a, b) => a + b, 0);
          expect(sum, `${path} sums to the count ${where}`).to.equal(list.length);
          const byMonth: Record<string, Record<string, number>> = {};
          for (const [m, count] of Object.entries(countBy(list, month))) {
            const inMonth = countBy(
              list.filter((c) => month(c) === m),
              key,
            );
            expect(Object.values(inMonth).reduce((a, b) => a + b, 0)).to.equal(count);
            byMonth[m] = inMonth;
          }
          expect(
            await get(`${path}/`, { ...query, grain: 'month' }, headers()),
            `${path} month ${where}`,
          ).to.deep.equal(byMonth);
        }
      }
    });
  }

  it('counts the private campaign only for callers who may see it', async function () {
    const privateId = s['c6']!.id;
    const strangers = await get('/v4/campaigns/count', { showPrivate: 'true', test: 'true' }, anonymous);
    const own = await get('/v4/campaigns/count', { showPrivate: 'true', test: 'true' }, creator);
    expect(own).to.equal(strangers + 1);
    expect(await get('/v4/campaigns/count', { id: privateId, showPrivate: 'true' }, anonymous)).to.equal(0);
    expect(await get('/v4/campaigns/count/by-chains', { id: privateId, showPrivate: 'true' }, anonymous)).to.deep.equal(
      {},
    );
    expect(
      await get('/v4/campaigns/count/by-chains', { id: privateId, showPrivate: 'true' }, backOffice),
    ).to.deep.equal({ 31337: 1 });
  });

  it('answers a bare JSON number, not a campaign (route registered before /campaigns/{id})', async function () {
    const res = await h.request().get('/v4/campaigns/count').expect(200);
    expect(res.text).to.match(/^[0-9]+$/);
    expect(res.headers['cache-control']).to.match(/^public, max-age=/);
  });

  it('names the field of a bad filter or grain in a 400', async function () {
    for (const [path, query, field] of [
      ['/v4/campaigns/count', { grain: 'week' }, 'grain'],
      ['/v4/campaigns/count/by-types', { chainId: 'x' }, 'chainId'],
      ['/v4/campaigns/count/by-protocols', { status: 'NOW' }, 'status'],
    ] as const) {
      const res = await h.request().get(path).query(query).expect(400);
      expect(JSON.stringify(res.body.errors), path).to.include(field);
    }
  });
});
