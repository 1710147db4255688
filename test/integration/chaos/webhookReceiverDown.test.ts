import { expect } from 'chai';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { appendEvents } from '../../../domain/tables/events.js';
import { withTransaction } from '../../../internal/pg.js';
import { deliverWebhooks } from '../../../jobs/deliverWebhooks.js';
import { startScheduler } from '../../../jobs/scheduler.js';
import { chaosSettings } from '../../helpers/chaosSettings.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhookReceiver.js';
import { login } from '../api/authFlow.js';
import { createApiKey } from '../api/ownedResources.js';
import { eventually } from '../../helpers/eventually.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('chaos: a webhook receiver down, then up, under a running scheduler (#32)', function () {
  let h: Harness;
  let receiver: WebhookReceiver;

  before(async function () {
    this.timeout(300_000);
    h = await createHarness({
      chainIds: [31337],
      env: { WEBHOOKS_ALLOW_PRIVATE: 'loopback', WEBHOOKS_RETRY_BASE_MS: '200', WEBHOOKS_RETRY_MAX_MS: '2000' },
    });
    receiver = await startWebhookReceiver();
  });
  after(async () => {
    await receiver?.close();
    await h?.close();
  });

  it(`delivers every event appended while it was down (${chaosSettings.webhookDownSeconds} s), none twice`, async function () {
    this.timeout(120_000 + chaosSettings.webhookDownSeconds * 2000);
    const key = await createApiKey(h, (await login(h, HARDHAT_TEST_KEYS[1]!)).cookie);
    await h.request().post('/v4/webhooks').set({ 'x-api-key': key.rawKey }).send({ url: receiver.url }).expect(200);
    const scheduler = startScheduler({ config: h.config, logger: h.deps.logger, jobs: [deliverWebhooks] });
    const appended: string[] = [];
    const append = async () => {
      await withTransaction(h.deps.pg, (tx) =>
        appendEvents(tx, [{ type: 'campaign.changed', chainId: 31337, payload: { n: appended.length } }]),
      );
      const { rows } = await h.deps.pg.query<{ id: string }>('SELECT max(id)::text AS id FROM events');
      appended.push(rows[0]!.id);
    };
    try {
      await scheduler.ready;
      for (let i = 0; i < 5; i++) await append();
      await receiver.down();
      for (const end = Date.now() + chaosSettings.webhookDownSeconds * 1000; Date.now() < end; await sleep(100))
        await append();
      await receiver.up();
      for (let i = 0; i < 5; i++) await append();
      await eventually(
        () => {
          if (receiver.accepted.length < appended.length)
            throw new Error(`${receiver.accepted.length} of ${appended.length} delivered`);
        },
        { timeoutMs: 60_000, what: 'every event accepted' },
      );
    } finally {
      await scheduler.stop();
    }
    expect(receiver.accepted).to.deep.equal(appended);
    expect(receiver.duplicates()).to.equal(0);
    const { rows } = await h.deps.pg.query<{ failed: number }>(
      'SELECT count(*) FILTER (WHERE NOT delivered)::int AS failed FROM webhook_deliveries',
    );
    expect(rows[0]!.failed, 'attempts refused while it was down').to.be.greaterThan(0);
    console.log(
      `      receiver down ${chaosSettings.webhookDownSeconds} s: ${appended.length} events, ${rows[0]!.failed} refused attempts, all delivered once`,
    );
  });
});
