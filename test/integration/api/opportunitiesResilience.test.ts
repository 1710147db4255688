import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { upsertChains } from '../../../domain/tables/chains.js';
import { createEsClient, indexNames } from '../../../internal/es.js';
import { createLogger } from '../../../internal/logger.js';
import { syntheticOpportunityDocument } from '../../fixtures/api/opportunities/syntheticOpportunity.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const NOW = 2_000_000_000;

describe('GET /v4/opportunities and /v4/campaigns: sub-campaign filter and a slow Elasticsearch', function () {
  let h: Harness;
  let hung: Server;
  const docs = {
    root: syntheticOpportunityDocument({ i: 1, symbol: 'ROOT', createdAt: NOW - 10 }, NOW),
    subOnly: syntheticOpportunityDocument({ i: 2, symbol: 'SUBX', subCampaignsOnly: true, createdAt: NOW - 20 }, NOW),
  };

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    await upsertChains(h.deps.pg, h.config.chains);
    const write = indexNames(h.config.esIndexPrefix, 'opportunities').write;
    await h.deps.es.bulk({
      refresh: true,
      operations: Object.values(docs).flatMap((d) => [{ index: { _index: write, _id: d.id } }, d]),
    });
    // An "Elasticsearch" that accepts connections and never answers.
    hung = createServer(() => {});
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  });

  after(async () => {
    hung?.closeAllConnections();
    hung?.close();
    await h?.close();
  });

  const app = (es = h.deps.es) =>
    supertest(
      h
        .createApp({
          logger: createLogger({ level: 'silent', name: 'test' }),
          es,
          now: () => NOW,
        })
        .callback(),
    );

  it('excludeSubCampaigns=true drops opportunities whose campaigns are all sub-campaigns', async function () {
    const all = await app().get('/v4/opportunities').expect(200);
    expect(all.body.map((o: { id: string }) => o.id)).to.deep.equal([docs.root.id, docs.subOnly.id]);
    const roots = await app().get('/v4/opportunities').query({ excludeSubCampaigns: 'true' }).expect(200);
    expect(roots.body.map((o: { id: string }) => o.id)).to.deep.equal([docs.root.id]);
    expect((await app().get('/v4/opportunities/count').query({ excludeSubCampaigns: '1' }).expect(200)).body).to.equal(
      1,
    );
  });

  for (const path of [
    '/v4/opportunities',
    '/v4/opportunities/count',
    '/v4/opportunities/bins/tvl',
    '/v4/opportunities/aggregate/tvl',
    '/v4/campaigns',
    `/v4/campaigns/31337-0x${'1'.repeat(64)}`,
  ]) {
    it(`${path} answers a 503 problem body within the timeout when Elasticsearch does not answer`, async function () {
      const timeoutMs = 300;
      const slow = createEsClient({
        node: `http://127.0.0.1:${(hung.address() as AddressInfo).port}`,
        requestTimeoutMs: timeoutMs,
      });
      const started = Date.now();
      const res = await supertest(
        h
          .createApp({
            config: { ...h.config, esRequestTimeoutMs: timeoutMs },
            logger: createLogger({ level: 'silent', name: 'test' }),
            es: slow,
            now: () => NOW,
          })
          .callback(),
      )
        .get(path)
        .expect(503);
      expect(Date.now() - started, 'bounded by the request timeout (one client retry)').to.be.below(
        4 * timeoutMs + 1000,
      );
      expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
      expect(res.body).to.include({ status: 503, service: 'elasticsearch' });
      await slow.close();
    });
  }
});
