import { createServer } from 'node:net';
import { Client as EsClient } from '@elastic/elasticsearch';
import { expect } from 'chai';
import pg from 'pg';
import { createPublicClient, http } from 'viem';
import { classifyElasticsearchError } from '../../../internal/errorSources/elasticsearch.js';
import { classifyFetchError, classifyHttpStatus } from '../../../internal/errorSources/http.js';
import { classifyPostgresError } from '../../../internal/errorSources/postgres.js';
import { classifyRpcError } from '../../../internal/errorSources/rpc.js';
import { ensureDatabase } from '../../../sql/migrate.js';
import { TEST_DATABASE_URL, TEST_ES_URL, uniqueIndexPrefix } from '../../helpers/testConfig.js';

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** What `work` rejects with (fails the test when it resolves). */
async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

/** The classifiers (internal/errorSources/) on errors the real libraries throw against the real services. */
describe('internal/errorSources on real failures of PostgreSQL, Elasticsearch, an RPC node and an HTTP source', function () {
  let client: pg.Client;

  before(async () => {
    await ensureDatabase(TEST_DATABASE_URL);
    client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
  });
  after(async () => {
    await client?.end();
  });

  it('PostgreSQL: a statement timeout is a retryable outage; bad data and a duplicate key are fatal', async () => {
    const timedOut = await failureOf(async () => {
      await client.query('BEGIN');
      try {
        await client.query("SET LOCAL statement_timeout = '50ms'");
        await client.query('SELECT pg_sleep(2)');
      } finally {
        await client.query('ROLLBACK');
      }
    });
    expect(classifyPostgresError(timedOut)).to.include({
      retryable: true,
      unavailable: true,
      reason: 'statement timeout',
    });
    const divided = await failureOf(() => client.query('SELECT 1 / 0'));
    expect(classifyPostgresError(divided)).to.deep.equal({
      source: 'postgresql',
      retryable: false,
      userError: false,
      unavailable: false,
      reason: 'SQLSTATE 22012',
    });
    const duplicate = await failureOf(() =>
      client.query('CREATE TEMP TABLE t_dup (id int PRIMARY KEY); INSERT INTO t_dup VALUES (1), (1)'),
    );
    expect(classifyPostgresError(duplicate)).to.include({ retryable: false, reason: 'SQLSTATE 23505' });
  });

  it('PostgreSQL: a server that refuses connections is a retryable outage', async () => {
    const port = await closedPort();
    const refused = await failureOf(() => new pg.Client({ host: '127.0.0.1', port, user: 'postgres' }).connect());
    expect(classifyPostgresError(refused)).to.include({ retryable: true, unavailable: true, reason: 'ECONNREFUSED' });
  });

  it('Elasticsearch: a missing index and no connection are retryable outages; a malformed query is fatal', async () => {
    const es = new EsClient({ node: TEST_ES_URL });
    const missing = await failureOf(() => es.search({ index: `${uniqueIndexPrefix()}-missing` }));
    expect(classifyElasticsearchError(missing)).to.include({
      retryable: true,
      unavailable: true,
      reason: 'index_not_found_exception',
    });
    const malformed = await failureOf(() => es.search({ query: { no_such_query: {} } as never }));
    expect(classifyElasticsearchError(malformed)).to.include({ retryable: false, unavailable: false });
    const down = new EsClient({ node: `http://127.0.0.1:${await closedPort()}`, maxRetries: 0 });
    expect(classifyElasticsearchError(await failureOf(() => down.ping()))).to.include({
      retryable: true,
      unavailable: true,
    });
    await Promise.all([es.close(), down.close()]);
  });

  it('RPC: a node that refuses connections is a retryable outage (viem HttpRequestError)', async () => {
    const node = createPublicClient({ transport: http(`http://127.0.0.1:${await closedPort()}`, { retryCount: 0 }) });
    const failure = await failureOf(() => node.getBlockNumber());
    expect(classifyRpcError(failure)).to.include({ source: 'rpc', retryable: true, unavailable: true });
  });

  it('HTTP sources: a refused fetch is retryable; statuses are judged by classifyHttpStatus', async () => {
    const port = await closedPort();
    const refused = await failureOf(() => fetch(`http://127.0.0.1:${port}/coins`));
    expect(classifyFetchError(refused)).to.include({ source: 'http', retryable: true });
    expect(classifyHttpStatus(503).retryable).to.equal(true);
  });
});
