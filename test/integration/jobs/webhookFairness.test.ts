import { expect } from 'chai';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { appendEvents, type NewEvent } from '../../../domain/tables/events.js';
import { withTransaction } from '../../../internal/pg.js';
import { deliverWebhooks, ownerShare } from '../../../jobs/deliverWebhooks.js';
import { runJob } from '../../../jobs/runJob.js';
import { startScheduler } from '../../../jobs/scheduler.js';
import { claimWebhook, DELIVERY_BATCH, leaseMsOf, serveWebhook } from '../../../jobs/webhooks/serveWebhook.js';
import { eventually } from '../../helpers/eventually.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhookReceiver.js';
import { login } from '../api/authFlow.js';
import { createApiKey } from '../api/ownedResources.js';

/** A receiver that answers after this long: slow, well within WEBHOOKS_TIMEOUT_MS. */
const SLOW_MS = 2_000;

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 30_000) {
  await eventually(check, { timeoutMs: ms, intervalMs: 5, what });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The most requests a set of receivers had in flight at once (each answered `delayMs` after it arrived). */
function mostInFlight(receivers: WebhookReceiver[], delayMs: number): number {
  const arrivals = receivers.flatMap((r) => r.received.map((d) => d.at));
  return Math.max(0, ...arrivals.map((t) => arrivals.filter((u) => u <= t && u + delayMs > t).length));
}

/**
 * Issue #43 (F6): deliveries hold no transaction across a request, owners are served round-robin
 * with a share of the workers each, and a slow receiver delays only its own webhook.
 */
describe('webhooks job: fair to every owner, no transaction across a request (#43)', function () {
  let h: Harness;
  /** API keys of two owners (wallets). */
  let keys: string[];
  const receivers: WebhookReceiver[] = [];
  const receiver = async (delayMs = 0) => {
    const r = await startWebhookReceiver({ delayMs });
    receivers.push(r);
    return r;
  };
  const append = (events: NewEvent[]) => withTransaction(h.deps.pg, (tx) => appendEvents(tx, events));
  const changed = (n: number, extra: Partial<NewEvent> = {}): NewEvent[] =>
    Array.from({ length: n }, (_, i) => ({ type: 'campaign.changed', chainId: 31337, payload: { i }, ...extra }));
  const maxId = async () =>
    (await h.deps.pg.query<{ id: string }>('SELECT coalesce(max(id), 0)::text AS id FROM events')).rows[0]!.id;
  const hook = async (key: string, body: Record<string, unknown>) =>
    (await h.request().post('/v4/webhooks').set({ 'x-api-key': key }).send(body).expect(200)).body as { id: string };
  /** As if the webhook had just had its turn: the other owners' webhooks come first (on main: no effect). */
  const servedJustNow = (id: string) =>
    h.deps.pg.query('UPDATE webhook_cursors SET served_at = now(), owner_turn_at = now() WHERE webhook_id = $1', [id]);
  /** Appends one event and resolves with the time from its commit to its arrival at `r`. */
  const latencyOf = async (r: WebhookReceiver) => {
    const t0 = Date.now();
    await append(changed(1));
    const id = await maxId();
    await until(`event ${id} delivered`, () => r.accepted.includes(id));
    return r.received.find((d) => d.headers['webhook-id'] === id)!.at - t0;
  };

  before(async function () {
    this.timeout(300_000);
    h = await createHarness({ env: { WEBHOOKS_ALLOW_PRIVATE: 'loopback', WEBHOOKS_TIMEOUT_MS: '10000' } });
    keys = [];
    for (const k of HARDHAT_TEST_KEYS.slice(1, 3))
      keys.push((await createApiKey(h, (await login(h, k)).cookie)).rawKey);
  });
  after(async () => {
    for (const r of receivers) await r.close();
    await h?.close();
  });
  beforeEach(async () => {
    await h.deps.pg.query('DELETE FROM webhooks');
    await h.deps.pg.query('DELETE FROM webhook_cursors');
  });

  it('holds no transaction and no row lock while a receiver takes its time; the claim is a lease', async function () {
    this.timeout(60_000);
    const slow = await receiver(SLOW_MS);
    const { id } = await hook(keys[0]!, { url: slow.url });
    await append(changed(1));
    const run = runJob(deliverWebhooks, h.deps);
    await until('the request in flight', () => slow.received.length === 1);
    const { rows: open } = await h.deps.pg.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = 'rewards-jobs' AND state LIKE 'idle in transaction%'`,
    );
    expect(open[0]!.n, 'jobs sessions idle in a transaction').to.equal(0);
    const { rows: lease } = await withTransaction(h.deps.pg, (tx) =>
      tx.query<{ leased: boolean }>(
        // NOWAIT: fails at once if a deliverer held the cursor row locked.
        'SELECT leased_until > now() AS leased FROM webhook_cursors WHERE webhook_id = $1 FOR UPDATE NOWAIT',
        [id],
      ),
    );
    expect(lease[0]!.leased).to.equal(true);
    expect((await run).status).to.equal('success');
    expect(slow.accepted).to.have.length(1);
    const { rows } = await h.deps.pg.query(
      'SELECT lease_token, leased_until FROM webhook_cursors WHERE webhook_id = $1',
      [id],
    );
    expect(rows[0]).to.deep.equal({ lease_token: null, leased_until: null });
  });

  it('a slow receiver delays only itself: another owner’s fast receiver is served as fast as without it', async function () {
    this.timeout(120_000);
    const fast = await receiver();
    await hook(keys[1]!, { url: fast.url });
    // Follow mode only (a yearly cron): each committed append starts the deliveries.
    const config = { ...h.config, schedules: { ...h.config.schedules, webhooks: '0 0 0 1 1 *' } };
    const scheduler = startScheduler({ config, logger: h.deps.logger, jobs: [deliverWebhooks] });
    const SAMPLES = 6;
    const alone: number[] = [];
    const beside: number[] = [];
    let slow: WebhookReceiver | undefined;
    try {
      await scheduler.ready;
      await latencyOf(fast); // the first run warms the pool
      for (let i = 0; i < SAMPLES; i += 1) alone.push(await latencyOf(fast));
      slow = await receiver(SLOW_MS);
      await hook(keys[0]!, { url: slow.url });
      for (let i = 0; i < SAMPLES; i += 1) beside.push(await latencyOf(fast));
    } finally {
      await scheduler.stop();
    }
    console.log(
      `      fast receiver, ms from commit to delivery: alone ${alone.join(', ')}; beside a ${SLOW_MS} ms receiver ${beside.join(', ')}`,
    );
    expect(slow!.received.length, 'the slow receiver was being served meanwhile').to.be.greaterThan(0);
    expect(median(beside)).to.be.at.most(2 * median(alone) + 100);
    expect(Math.max(...beside)).to.be.below(Math.max(...alone) + SLOW_MS / 4);
  });

  it('an owner with more webhooks than workers holds at most its share; another owner is not starved', async function () {
    this.timeout(120_000);
    const run = () => runJob(deliverWebhooks, h.deps);
    // Without the busy owner: the other owner's delivery time in a run.
    const first = await receiver();
    const lone = await hook(keys[1]!, { url: first.url });
    await append(changed(1));
    let t0 = Date.now();
    await run();
    const alone = first.received[0]!.at - t0;
    await h.request().delete(`/v4/webhooks/${lone.id}`).set({ 'x-api-key': keys[1]! }).expect(200);
    // The busy owner's webhooks first (older, as due as the other's), then the other owner's.
    const busy = await Promise.all(Array.from({ length: h.config.webhooks.concurrency + 1 }, () => receiver(SLOW_MS)));
    for (const r of busy) await hook(keys[0]!, { url: r.url });
    const other = await receiver();
    await servedJustNow((await hook(keys[1]!, { url: other.url })).id);
    await append(changed(1));
    t0 = Date.now();
    await run();
    const beside = other.received[0]!.at - t0;
    console.log(
      `      other owner's delivery in the run: ${alone} ms alone, ${beside} ms beside ${busy.length} slow webhooks`,
    );
    expect(beside).to.be.below(alone + SLOW_MS / 4);
    expect(busy.every((r) => r.accepted.length === 1)).to.equal(true);
    expect(mostInFlight(busy, SLOW_MS)).to.be.at.most(ownerShare(h.config.webhooks.concurrency));
  });

  it('after a batch a webhook goes to the back of the queue: a backlog does not hold another owner back', async function () {
    this.timeout(60_000);
    const one = { ...h.deps, config: { ...h.deps.config, webhooks: { ...h.deps.config.webhooks, concurrency: 1 } } };
    const behind = await receiver();
    await hook(keys[0]!, { url: behind.url });
    const other = await receiver();
    await servedJustNow((await hook(keys[1]!, { url: other.url, type: 'root.seen' })).id);
    const BACKLOG = 2 * DELIVERY_BATCH + 50;
    await append(changed(BACKLOG));
    await append([{ type: 'root.seen', chainId: 31337 }]);
    await deliverWebhooks.run(one);
    expect(behind.accepted).to.have.length(BACKLOG + 1);
    expect(other.accepted).to.have.length(1);
    const before = behind.received.filter((d) => d.at < other.received[0]!.at).length;
    console.log(`      ${before} of the backlog's ${BACKLOG + 1} deliveries before the other owner's one`);
    expect(before, 'the backlog went first, then back in the queue').to.be.within(1, DELIVERY_BATCH);
  });

  it('a live lease held elsewhere is left alone; an expired one (its worker died) is taken over; a lost one records nothing', async function () {
    this.timeout(60_000);
    const r = await receiver();
    const { id } = await hook(keys[0]!, { url: r.url });
    await append(changed(1));
    const eventId = await maxId();
    const lease = (interval: string) =>
      h.deps.pg.query(
        `UPDATE webhook_cursors SET lease_token = gen_random_uuid(), leased_until = now() + $2::interval WHERE webhook_id = $1`,
        [id, interval],
      );
    await lease('1 hour');
    await deliverWebhooks.run(h.deps);
    expect(r.received).to.have.length(0);
    await lease('-1 second');
    await deliverWebhooks.run(h.deps);
    expect(r.accepted).to.deep.equal([eventId]);

    // A claim whose lease another deliverer took over sends its attempt, but moves nothing.
    await append(changed(1));
    const config = h.deps.config.webhooks;
    const w = (await claimWebhook(h.deps.pg, { leaseMs: leaseMsOf(config), skipOwners: [] }))!;
    expect(w.id).to.equal(id);
    await lease('1 hour');
    const served = await serveWebhook(h.deps.pg, config, w, new AbortController().signal);
    expect(served.delivered).to.equal(0);
    expect(r.received).to.have.length(2);
    const { rows } = await h.deps.pg.query<{ last: string; n: number }>(
      `SELECT c.last_event_id::text AS last, (SELECT count(*)::int FROM webhook_deliveries d WHERE d.webhook_id = c.webhook_id) AS n
       FROM webhook_cursors c WHERE c.webhook_id = $1`,
      [id],
    );
    expect(rows[0]).to.deep.equal({ last: eventId, n: 1 });
  });
});
