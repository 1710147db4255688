import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { createRewardsClient, type EventStreamError } from '../../../clients/typescript/src/index.js';
import { findFreePort } from '../../../contracts/devnet.js';
import { appendEvents } from '../../../domain/tables/events.js';
import { withTransaction } from '../../../internal/pg.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { API_PROCESS_PORTS, startApiProcess } from '../../helpers/apiProcess.js';
import { eventually } from '../../helpers/eventually.js';

const CHAIN = 31337;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Issue #32: the API process holding a stream is SIGKILLed while events keep committing, and a new
 * one starts on the same address: the typed client's subscribe() resumes with Last-Event-ID and
 * receives every event exactly once, in order.
 */
describe('chaos: SIGKILL of the API under an event stream (subscribe() resumes, nothing lost or repeated)', function () {
  let h: Harness;
  let port: number;
  let api: ChildProcess | null = null;

  const startApi = () => startApiProcess({ config: h.config, port });

  before(async function () {
    h = await createHarness({ chainIds: [CHAIN] });
    port = await findFreePort(API_PROCESS_PORTS);
    api = await startApi();
  });

  after(async () => {
    api?.kill('SIGKILL');
    await h?.close();
  });

  it('every event committed before, during and after the kill arrives once, in order', async function () {
    const { rows: head } = await h.deps.pg.query<{ id: string }>('SELECT coalesce(max(id), 0)::text AS id FROM events');
    const appended: string[] = [];
    let appending = true;
    const appender = (async () => {
      for (let n = 0; appending; n++) {
        const { rows } = await withTransaction(h.deps.pg, async (tx) => {
          await appendEvents(tx, [
            { type: 'claim.indexed', chainId: CHAIN, address: `0x${'9'.repeat(40)}`, payload: { n } },
          ]);
          return tx.query<{ id: string }>('SELECT max(id)::text AS id FROM events');
        });
        appended.push(rows[0]!.id);
        await sleep(20);
      }
    })();
    const got: string[] = [];
    const errors: EventStreamError[] = [];
    const sub = createRewardsClient({ baseUrl: `http://127.0.0.1:${port}` }).subscribe({
      after: head[0]!.id,
      filters: { type: ['claim.indexed'] },
      onEvent: (e) => void got.push(e.id),
      onError: (e) => void errors.push(e),
      backoff: { initialMs: 100, maxMs: 500 },
    });
    try {
      await eventually(() => got.length > 10, { timeoutMs: 30_000, what: 'more than 10 events before the kill' });
      api!.kill('SIGKILL');
      await new Promise((r) => api!.once('exit', r));
      const atKill = appended.length;
      // Down: events keep committing.
      await eventually(() => appended.length > atKill + 10, {
        timeoutMs: 30_000,
        what: '10 events committed while down',
      });
      api = await startApi();
      const atRestart = appended.length;
      await eventually(() => appended.length > atRestart + 10, {
        timeoutMs: 30_000,
        what: '10 events committed after the restart',
      });
      appending = false;
      await appender;
      await eventually(() => got.length >= appended.length, { timeoutMs: 20_000, what: 'every appended event' }).catch(
        () => {},
      ); // the comparison below says what is missing
      expect(got).to.deep.equal(appended);
      expect(errors.length, 'the broken connection was reported').to.be.greaterThan(0);
      expect(errors.every((e) => !e.fatal)).to.equal(true);
    } finally {
      appending = false;
      await appender;
      sub.close();
      await sub.done;
    }
  });
});
