import { expect } from 'chai';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { appendEvents } from '../../../domain/tables/events.js';
import { withTransaction } from '../../../internal/pg.js';
import { chaosSettings } from '../../helpers/chaosSettings.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { everySecond, startSchedulerProcess, type SchedulerProcess } from '../../helpers/schedulerProcess.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhookReceiver.js';
import { login } from '../api/authFlow.js';
import { createApiKey } from '../api/ownedResources.js';
import { eventually } from '../../helpers/eventually.js';

/** Events appended for the case: enough that every kill lands in the middle of deliveries. */
const EVENTS = 300;

/**
 * Issue #32: the jobs process delivering webhooks is SIGKILLed mid-delivery, again and again, and a
 * new one takes over: every event reaches the receiver (at least once; a deduplicating receiver keeps
 * each once, in order), since a webhook's cursor moves only when a delivery is recorded; the killed
 * process's lease expires and the new one takes the webhook over from its cursor (#43).
 */
describe('chaos: SIGKILL of the process delivering webhooks (#32)', function () {
  let h: Harness;
  let receiver: WebhookReceiver;
  let scheduler: SchedulerProcess | null = null;

  // A killed deliverer's lease is taken over once it expires: an attempt's timeout plus LEASE_MARGIN_MS
  // (10 s). The receiver answers in 20 ms, so a 1 s timeout keeps each takeover at 11 s instead of 20 s.
  const startDeliverer = () =>
    startSchedulerProcess(h.config, {
      SCHEDULER_JOBS: 'webhooks',
      ...everySecond(['webhooks']),
      WEBHOOKS_ALLOW_PRIVATE: 'loopback',
      WEBHOOKS_TIMEOUT_MS: '1000',
    });

  before(async function () {
    this.timeout(300_000);
    h = await createHarness({ chainIds: [31337], env: { WEBHOOKS_ALLOW_PRIVATE: 'loopback' } });
    // Each delivery takes a while, so a kill finds one in flight.
    receiver = await startWebhookReceiver({ delayMs: 20 });
  });
  after(async () => {
    scheduler?.proc.kill('SIGKILL');
    await receiver?.close();
    await h?.close();
  });

  it(`every event delivered across ${chaosSettings.webhookDeliveryKills} SIGKILLs of the deliverer, in order, each kept once`, async function () {
    this.timeout(300_000);
    const key = await createApiKey(h, (await login(h, HARDHAT_TEST_KEYS[1]!)).cookie);
    await h.request().post('/v4/webhooks').set({ 'x-api-key': key.rawKey }).send({ url: receiver.url }).expect(200);
    const appended: string[] = [];
    for (let n = 0; n < EVENTS; n++) {
      const { rows } = await withTransaction(h.deps.pg, async (tx) => {
        await appendEvents(tx, [{ type: 'campaign.changed', chainId: 31337, payload: { n } }]);
        return tx.query<{ id: string }>('SELECT max(id)::text AS id FROM events');
      });
      appended.push(rows[0]!.id);
    }
    let kills = 0;
    const step = Math.floor(EVENTS / (chaosSettings.webhookDeliveryKills + 1));
    while (kills < chaosSettings.webhookDeliveryKills) {
      scheduler = await startDeliverer();
      const target = step * (kills + 1);
      const deliverer = scheduler;
      await eventually(() => receiver.received.length >= target, {
        timeoutMs: 60_000,
        intervalMs: 5,
        what: `${target} deliveries`,
      }).catch((error: Error) => {
        throw new Error(`deliverer stalled at ${receiver.received.length}: ${deliverer.output().slice(-800)}`, {
          cause: error,
        });
      });
      scheduler.proc.kill('SIGKILL');
      await new Promise((r) => scheduler!.proc.once('exit', r));
      kills += 1;
    }
    scheduler = await startDeliverer();
    await eventually(
      () => {
        if (receiver.accepted.length < appended.length)
          throw new Error(`${receiver.accepted.length} of ${appended.length} delivered`);
      },
      { timeoutMs: 120_000, what: 'every event accepted' },
    );
    expect(receiver.accepted, 'each event kept once, in order, by a deduplicating receiver').to.deep.equal(appended);
    const repeated = receiver.duplicates();
    console.log(
      `      ${kills} SIGKILLs of the deliverer: ${appended.length} events, ${receiver.received.length} requests, ${repeated} redelivered after a kill`,
    );
    // At most the one request in flight at each kill is sent again: each 2xx is recorded before the next request.
    expect(repeated).to.be.at.most(kills);
  });
});
