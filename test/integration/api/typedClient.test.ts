import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { createHttpServer } from '../../../api/httpServer.js';
import { createRewardsClient, type RewardsClient } from '../../../clients/typescript/src/index.js';
import { CLIENT_DIR, clientFilesOf } from '../../../scripts/generateClient.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';
import { login, type Session } from './authFlow.js';
import { createReferenceDemo, type ReferenceDemo } from './referenceDemo.js';

const CHAIN_ID = 31337;
/** A demo recipient with rewards in the live root (scripts/seedDemo.ts). */
const RECIPIENT = '0x14dc79964da2c08b23698b3d3cc7ca32193d9955';

/**
 * Item 3 of issue #21: the committed client (clients/typescript) is what the served OpenAPI document
 * generates, and it works against the live test stack (the demo, over a real socket).
 */
describe('typed client (clients/typescript: openapi-typescript + openapi-fetch) against the live demo', function () {
  let demo: ReferenceDemo;
  let server: Server;
  let baseUrl: string;
  let api: RewardsClient;

  before(async function () {
    demo = await createReferenceDemo();
    server = createHttpServer(demo.h.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    api = createRewardsClient({ baseUrl });
  });

  after(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await demo?.close();
  });

  it('the committed client is what the served /v4/openapi.json generates (else: npm run client:generate)', async function () {
    const served = await demo.h.request().get('/v4/openapi.json').expect(200);
    for (const [path, generated] of Object.entries(await clientFilesOf(served.body))) {
      const committed = readFileSync(join(CLIENT_DIR, path), 'utf8');
      if (committed === generated) continue;
      const [a, b] = [committed.split('\n'), generated.split('\n')];
      const line = a.findIndex((l, i) => l !== b[i]);
      expect.fail(
        `clients/typescript/${path} is stale at line ${line + 1}: committed ${JSON.stringify(a[line])}, served document gives ${JSON.stringify(b[line])}; run npm run client:generate`,
      );
    }
  });

  it('searches opportunities with filters, sort and paging; the count agrees', async function () {
    const query = {
      chainId: String(CHAIN_ID),
      status: 'LIVE',
      minimumTvl: 1,
      sort: 'tvl',
      order: 'desc',
      items: 5,
      page: 0,
    } as const;
    const { data, error, response } = await api.GET('/v4/opportunities', { params: { query } });
    expect(error).to.equal(undefined);
    expect(response.status).to.equal(200);
    expect(data!.length).to.be.within(1, 5);
    for (const o of data!) {
      expect(o.chainId).to.equal(CHAIN_ID);
      expect(o.status).to.equal('LIVE');
      expect(o.tvl).to.be.at.least(1);
    }
    const tvls = data!.map((o) => o.tvl);
    expect(tvls).to.deep.equal([...tvls].sort((x, y) => y - x));
    const { minimumTvl, chainId, status } = query;
    const count = await api.GET('/v4/opportunities/count', { params: { query: { minimumTvl, chainId, status } } });
    expect(count.data).to.be.at.least(data!.length);
  });

  it('reads APR bins for a filter; the bins hold every matching opportunity', async function () {
    const query = { chainId: String(CHAIN_ID), status: 'LIVE' };
    const { data, error } = await api.GET('/v4/opportunities/bins/apr', { params: { query } });
    expect(error).to.equal(undefined);
    const count = (await api.GET('/v4/opportunities/count', { params: { query } })).data!;
    expect(data!.data.length).to.be.greaterThan(0);
    expect(data!.data.reduce((sum, b) => sum + b.count, 0)).to.equal(count);
    for (const b of data!.data) expect(b.max).to.be.at.least(b.min);
  });

  it("reads a user's rewards with Merkle proofs; a bad address is a typed problem body", async function () {
    const { data, error } = await api.GET('/v4/users/{address}/rewards', {
      params: { path: { address: RECIPIENT }, query: { chainId: [String(CHAIN_ID)], breakdownPage: 0 } },
    });
    expect(error).to.equal(undefined);
    const rewards = data!.flatMap((c) => c.rewards);
    expect(rewards.length).to.be.greaterThan(0);
    for (const r of rewards) {
      expect(r.recipient.toLowerCase()).to.equal(RECIPIENT);
      expect(r.proofs.length).to.be.greaterThan(0);
      for (const p of r.proofs) expect(p).to.match(/^0x[0-9a-f]{64}$/);
      expect(BigInt(r.amount)).to.equal(BigInt(r.claimed) + BigInt(r.pending));
    }
    const bad = await api.GET('/v4/users/{address}/rewards', {
      params: { path: { address: 'not-an-address' }, query: { chainId: [String(CHAIN_ID)], breakdownPage: 0 } },
    });
    expect(bad.data).to.equal(undefined);
    expect(bad.response.status).to.equal(400);
    expect(bad.error).to.deep.include({ status: 400 });
  });

  it('writes a key-value entry with an API key (store created through the client too), and refuses the write without it', async function () {
    const alice: Session = await login(demo.h, HARDHAT_TEST_KEYS[0]);
    const asAlice = createRewardsClient({ baseUrl, headers: { cookie: alice.cookie } });
    const key = await asAlice.POST('/v4/developer/keys', { body: { description: 'typed client' } });
    expect(key.error).to.equal(undefined);
    const backOffice = createRewardsClient({ baseUrl, headers: { authorization: TEST_BACK_OFFICE_TOKEN } });
    const quota = await backOffice.POST('/v4/internal/key-value-stores/quotas', {
      body: { ownerAddress: alice.address, maxConfigs: 2, maxSizeLimit: 100, allowedTypes: ['BOOST'] },
    });
    expect(quota.error).to.equal(undefined);
    const keyed = createRewardsClient({ baseUrl, apiKey: key.data!.rawKey });
    const store = await keyed.POST('/v4/key-value-stores/self', {
      body: { key: 'client-boosts', type: 'BOOST', sizeLimit: 10 },
    });
    expect(store.error).to.equal(undefined);
    const storeKey = store.data!.key;
    const entry = { address: '0x00000000000000000000000000000000000000aa', value: '{"multiplier":2}' };
    const written = await keyed.PUT('/v4/key-value-stores/{key}/entries', {
      params: { path: { key: storeKey } },
      body: entry,
    });
    expect(written.error).to.equal(undefined);
    expect(written.data).to.include({ value: entry.value });
    const read = await keyed.GET('/v4/key-value-stores/{key}/entries/{address}', {
      params: { path: { key: storeKey, address: entry.address } },
    });
    expect(read.data).to.include({ value: entry.value });
    const anonymous = await api.PUT('/v4/key-value-stores/{key}/entries', {
      params: { path: { key: storeKey } },
      body: entry,
    });
    expect(anonymous.response.status).to.equal(401);
  });
});
