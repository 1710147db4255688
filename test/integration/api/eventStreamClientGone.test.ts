import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEventFeed } from '../../../api/routes/events/eventFeed.js';
import { streamEvents } from '../../../api/routes/events/streamEvents.js';
import { ANONYMOUS_READER } from '../../../domain/eventLog/eventReader.js';
import { createLogger } from '../../../internal/logger.js';
import { createPgPool, type PgPool } from '../../../internal/pg.js';
import { eventually } from '../../helpers/eventually.js';
import { resetDatabase } from '../../helpers/database.js';
import { TEST_DATABASE_URL } from '../../helpers/testConfig.js';

/**
 * #44: a client that goes away while the events handler still reads its resume point (before the stream listens for
 * the response's 'close') must not leave a subscriber behind: it kept the feed's LISTEN connection checked out for
 * nobody (the pool's end then never finished) and, through the handler, a stream slot.
 */
describe('an event stream whose client has already gone', function () {
  let db: PgPool;
  let server: http.Server;
  let port: number;
  /** Responses the server got, their sockets cut by the test. */
  const responses: http.ServerResponse[] = [];

  before(async function () {
    await resetDatabase(TEST_DATABASE_URL);
    db = createPgPool({ connectionString: TEST_DATABASE_URL, applicationName: 'test-stream-gone', max: 4 });
    server = http.createServer((_req, res) => void responses.push(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    await db?.end();
  });

  /** A response whose request's socket was destroyed, and whose 'close' has been emitted (nobody listened). */
  async function goneResponse(): Promise<http.ServerResponse> {
    const before = responses.length;
    const req = http.get({ port, host: '127.0.0.1', path: '/v4/events' });
    req.on('error', () => undefined);
    await eventually(() => responses.length > before, { intervalMs: 5, what: 'the request reaching the server' });
    const res = responses[responses.length - 1]!;
    const closed = new Promise((r) => res.once('close', r));
    req.destroy();
    await closed;
    return res;
  }

  it('resolves at once, subscribes nothing and holds no connection of the pool', async function () {
    const feed = createEventFeed({ pg: db, logger: createLogger({ level: 'silent', name: 'test' }) });
    const res = await goneResponse();
    await streamEvents({
      db,
      res,
      feed,
      logger: createLogger({ level: 'silent', name: 'test' }),
      after: '0',
      filter: {},
      reader: ANONYMOUS_READER,
      maxBufferBytes: 65_536,
      stallMs: 1000,
      heartbeatMs: 60_000,
    });
    expect(feed.size(), 'subscribers of the feed').to.equal(0);
    // The feed's LISTEN connection is never opened: every connection of the pool is idle (none was made).
    await new Promise((r) => setTimeout(r, 200)); // time for a connection it should not open
    expect(db.totalCount - db.idleCount, 'connections checked out').to.equal(0);
  });
});
