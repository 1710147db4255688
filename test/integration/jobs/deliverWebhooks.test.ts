import { expect } from 'chai';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { appendEvents, type NewEvent } from '../../../domain/tables/events.js';
import { parseOutboundAllowance } from '../../../internal/outboundAddress.js';
import { withTransaction } from '../../../internal/pg.js';
import { deliverWebhooks } from '../../../jobs/deliverWebhooks.js';
import { createJobDeps } from '../../../jobs/deps.js';
import { runJob } from '../../../jobs/runJob.js';
import { startScheduler } from '../../../jobs/scheduler.js';
import { eventually } from '../../helpers/eventually.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhookReceiver.js';
import { login } from '../api/authFlow.js';
import { createApiKey, createOwnedResources, type OwnedResources } from '../api/ownedResources.js';

const DISABLE_AFTER = 4;
type Verify = (secret: string, headers: Record<string, unknown>, body: string, tolerance?: number) => boolean;

/** The verification recipe exactly as README "Webhooks" documents it (its ```js block). */
async function readmeVerifier(): Promise<Verify> {
  const readme = readFileSync('README.md', 'utf8');
  const at = readme.indexOf('Verifying a delivery');
  const block = /```js\n([\s\S]*?)```/.exec(readme.slice(at))![1]!;
  const file = join(mkdtempSync(join(tmpdir(), 'verify-')), 'verify.mjs');
  writeFileSync(file, block);
  return ((await import(pathToFileURL(file).href)) as { verifyWebhook: Verify }).verifyWebhook;
}

/** Waits for `check`, running `step` (a delivery run, say) between attempts. */
async function until(what: string, check: () => boolean | Promise<boolean>, step: () => Promise<unknown>, ms = 20_000) {
  await eventually(
    async () => {
      if (await check()) return true;
      await step();
      return false;
    },
    { timeoutMs: ms, intervalMs: 20, what },
  );
}

describe('webhooks job: signed, ordered, at-least-once deliveries from the jobs processes', function () {
  let h: Harness;
  let alice: OwnedResources;
  let bobKey: string;
  const receivers: WebhookReceiver[] = [];
  const receiver = async () => {
    const r = await startWebhookReceiver();
    receivers.push(r);
    return r;
  };
  const append = (events: NewEvent[]) => withTransaction(h.deps.pg, (tx) => appendEvents(tx, events));
  const changed = (n: number, extra: Partial<NewEvent> = {}): NewEvent[] =>
    Array.from({ length: n }, (_, i) => ({ type: 'campaign.changed', chainId: 31337, payload: { i }, ...extra }));
  const deliver = () => runJob(deliverWebhooks, h.deps);
  const hook = async (key: string, body: Record<string, unknown>) =>
    (await h.request().post('/v4/webhooks').set({ 'x-api-key': key }).send(body).expect(200)).body as {
      id: string;
      secret: string;
    };
  const get = async (id: string) =>
    (await h.request().get(`/v4/webhooks/${id}`).set({ 'x-api-key': alice.apiKey.rawKey }).expect(200)).body;
  const deliveries = async (id: string, query = '') =>
    (
      await h
        .request()
        .get(`/v4/webhooks/${id}/deliveries${query}`)
        .set({ 'x-api-key': alice.apiKey.rawKey })
        .expect(200)
    ).body as {
      deliveries: {
        eventId: string;
        attempt: number;
        delivered: boolean;
        statusCode: number | null;
        error: string | null;
        nextAttemptAt: string | null;
      }[];
      next: string | null;
    };
  const maxId = async () =>
    (await h.deps.pg.query<{ id: string }>('SELECT coalesce(max(id), 0)::text AS id FROM events')).rows[0]!.id;

  before(async function () {
    this.timeout(300_000);
    h = await createHarness({
      env: {
        WEBHOOKS_ALLOW_PRIVATE: 'loopback',
        WEBHOOKS_RETRY_BASE_MS: '50',
        WEBHOOKS_RETRY_MAX_MS: '200',
        WEBHOOKS_DISABLE_AFTER_FAILURES: String(DISABLE_AFTER),
        WEBHOOKS_TIMEOUT_MS: '2000',
      },
    });
    alice = await createOwnedResources(h, HARDHAT_TEST_KEYS[1]!);
    bobKey = (await createApiKey(h, (await login(h, HARDHAT_TEST_KEYS[2]!)).cookie)).rawKey;
  });
  after(async () => {
    for (const r of receivers) await r.close();
    await h?.close();
  });
  beforeEach(async () => {
    // Earlier tests' webhooks would take deliveries (and time) from this one's.
    await h.deps.pg.query('DELETE FROM webhooks');
  });

  it('delivers an appended event, signed as the README recipe verifies, with its id in header and body', async () => {
    const verify = await readmeVerifier();
    const r = await receiver();
    const { id, secret } = await hook(alice.apiKey.rawKey, { url: r.url });
    await append(changed(1));
    const eventId = await maxId();
    const run = await deliver();
    expect(run.status).to.equal('success');
    expect(r.received).to.have.length(1);
    const [got] = r.received;
    expect(got!.headers['webhook-id']).to.equal(eventId);
    const body = JSON.parse(got!.body);
    expect(body).to.include({ type: 'campaign.changed' });
    expect(body.data).to.include({ id: eventId, type: 'campaign.changed', chainId: 31337 });
    expect(verify(secret, got!.headers, got!.body)).to.equal(true);
    expect(verify(secret, got!.headers, got!.body.replace('31337', '31338'))).to.equal(false);
    expect(verify(`whsec_${Buffer.alloc(24, 1).toString('base64')}`, got!.headers, got!.body)).to.equal(false);
    const stale = { ...got!.headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 600) };
    expect(verify(secret, stale, got!.body)).to.equal(false);
    expect((await get(id)).lastEventId).to.equal(eventId);
    const listed = await deliveries(id);
    expect(listed.deliveries[0]).to.include({ eventId, attempt: 1, delivered: true, statusCode: 200, error: null });
  });

  it('delivers only what matches the filters, and skips the rest of the log', async () => {
    const r = await receiver();
    const { id } = await hook(alice.apiKey.rawKey, { url: r.url, type: 'root.seen', chainId: 31337 });
    await append([...changed(3), { type: 'root.seen', chainId: 1 }, { type: 'root.seen', chainId: 31337 }]);
    const wanted = await maxId();
    await deliver();
    expect(r.received.map((d) => d.headers['webhook-id'])).to.deep.equal([wanted]);
    await append(changed(2));
    await deliver();
    expect(r.received).to.have.length(1);
    expect((await get(id)).lastEventId).to.equal(await maxId());
  });

  it('filters by creator: only events about the campaigns an address created', async () => {
    const creator = (
      await h.deps.pg.query<{ creator: string }>('SELECT creator FROM campaigns WHERE id = $1', [alice.campaign])
    ).rows[0]!.creator;
    const r = await receiver();
    const { id } = await hook(alice.apiKey.rawKey, { url: r.url, creator: creator.toUpperCase().replace('0X', '0x') });
    expect((await get(id)).creator).to.equal(creator.toLowerCase());
    await append([...changed(2), ...changed(1, { campaignDbId: alice.campaign })]);
    const wanted = await maxId();
    await append(changed(1));
    await deliver();
    expect(r.received.map((d) => d.headers['webhook-id'])).to.deep.equal([wanted]);
  });

  it('retries a receiver answering 500, then delivers each id once to a deduplicating receiver', async () => {
    const r = await receiver();
    const { id } = await hook(alice.apiKey.rawKey, { url: r.url });
    r.answer(500);
    await append(changed(2));
    const last = await maxId();
    await deliver();
    const failed = await deliveries(id);
    expect(failed.deliveries[0]).to.include({ attempt: 1, delivered: false, statusCode: 500, error: 'HTTP 500' });
    expect(failed.deliveries[0]!.nextAttemptAt).to.be.a('string');
    expect((await get(id)).consecutiveFailures).to.equal(1);
    r.answer(200);
    await until('both delivered', () => r.accepted.length === 2, deliver);
    expect(r.accepted).to.deep.equal([String(Number(last) - 1), last]);
    expect(r.duplicates()).to.equal(0);
    const after = await deliveries(id, '?limit=2');
    expect(after.deliveries.map((d) => d.delivered)).to.deep.equal([true, true]);
    expect(after.next).to.be.a('string');
    const older = await deliveries(id, `?before=${after.next}`);
    expect(older.deliveries.every((d) => !d.delivered)).to.equal(true);
    expect((await get(id)).consecutiveFailures).to.equal(0);
  });

  it('disables after consecutive failures with the reason; re-enabling resumes where it stopped', async () => {
    const r = await receiver();
    const { id } = await hook(alice.apiKey.rawKey, { url: r.url });
    r.answer(503);
    await append(changed(1));
    const first = await maxId();
    await until('disabled', async () => !(await get(id)).enabled, deliver);
    const disabled = await get(id);
    expect(disabled.disabledReason).to.match(new RegExp(`^${DISABLE_AFTER} consecutive failed deliveries .*HTTP 503`));
    expect(disabled.nextAttemptAt).to.equal(null);
    expect(r.received).to.have.length(DISABLE_AFTER);
    await append(changed(1));
    const second = await maxId();
    await deliver();
    expect(r.received).to.have.length(DISABLE_AFTER);
    r.answer(200);
    await h
      .request()
      .patch(`/v4/webhooks/${id}`)
      .set({ 'x-api-key': alice.apiKey.rawKey })
      .send({ enabled: true })
      .expect(200);
    await until('resumed', () => r.accepted.length === 2, deliver);
    expect(r.accepted).to.deep.equal([first, second]);
  });

  it('a receiver down (connection refused), then moved to a new URL tried at once: every event delivered, none twice', async () => {
    const r = await receiver();
    const { id } = await hook(alice.apiKey.rawKey, { url: r.url.replace(/:\d+\//, ':9/') });
    await append(changed(3));
    await deliver();
    const down = await deliveries(id);
    expect(down.deliveries[0]!.error).to.match(/ECONNREFUSED/);
    // Back off far beyond the test: the new URL must be tried at once all the same.
    await h.deps.pg.query(
      "UPDATE webhook_cursors SET next_attempt_at = now() + interval '1 hour' WHERE webhook_id = $1",
      [id],
    );
    await h
      .request()
      .patch(`/v4/webhooks/${id}`)
      .set({ 'x-api-key': alice.apiKey.rawKey })
      .send({ url: r.url })
      .expect(200);
    await until('all delivered', () => r.accepted.length === 3, deliver);
    expect(r.duplicates()).to.equal(0);
  });

  it('an event about a private campaign reaches its creator’s webhook, never a stranger’s', async () => {
    await h.deps.pg.query(
      `INSERT INTO campaign_privacy (campaign_db_id, is_private, updated_by) VALUES ($1, true, 'test')
       ON CONFLICT (campaign_db_id) DO UPDATE SET is_private = true`,
      [alice.campaign],
    );
    const mine = await receiver();
    const stranger = await receiver();
    await hook(alice.apiKey.rawKey, { url: mine.url });
    await hook(bobKey, { url: stranger.url });
    await append(changed(1, { campaignDbId: alice.campaign }));
    const hidden = await maxId();
    await append(changed(1));
    const open = await maxId();
    await until('both served', () => mine.accepted.length === 2 && stranger.accepted.length === 1, deliver);
    expect(mine.accepted).to.deep.equal([hidden, open]);
    expect(stranger.accepted).to.deep.equal([open]);
  });

  it('checks the address again at delivery: a loopback receiver is refused when loopback is not allowed', async () => {
    const r = await receiver();
    const { id } = await hook(alice.apiKey.rawKey, { url: r.url.replace('127.0.0.1', 'localhost') });
    await append(changed(1));
    const strict = { ...h.deps.config, webhooks: { ...h.deps.config.webhooks, allow: parseOutboundAllowance('') } };
    await deliverWebhooks.run({ ...h.deps, config: strict });
    expect(r.received).to.have.length(0);
    expect((await deliveries(id)).deliveries[0]!.error).to.match(/localhost resolves to .*a loopback address/);
  });

  it('checks every IANA special-purpose range at delivery: a URL stored before the rule was widened is refused, not reached (#43 F8)', async () => {
    const r = await receiver();
    const { id } = await hook(alice.apiKey.rawKey, { url: r.url });
    // As if accepted by an older rule: written past the creation check.
    await h.deps.pg.query('UPDATE webhooks SET url = $2 WHERE id = $1', [
      id,
      `http://192.0.2.2:${new URL(r.url).port}/hook`,
    ]);
    await append(changed(1));
    await deliver();
    expect(r.received).to.have.length(0);
    expect((await deliveries(id)).deliveries[0]!.error).to.match(/192\.0\.2\.2, a documentation address \(.*RFC 5737/);
  });

  it('two schedulers deliver in parallel: every event to every webhook exactly once, in order', async function () {
    this.timeout(120_000);
    const other = createJobDeps(h.config, h.deps.logger, new AbortController().signal);
    const rs = await Promise.all([receiver(), receiver(), receiver(), receiver(), receiver()]);
    for (const r of rs) await hook(alice.apiKey.rawKey, { url: r.url });
    const from = Number(await maxId());
    let stop = false;
    const runsOf = { a: 0, b: 0 };
    // One "process" through runJob (its lock is per process for this job), the other straight on its own pool.
    const loopA = (async () => {
      while (!stop) if ((await runJob(deliverWebhooks, h.deps)).status === 'success') runsOf.a += 1;
    })();
    const loopB = (async () => {
      while (!stop) {
        await deliverWebhooks.run(other);
        runsOf.b += 1;
      }
    })();
    const BATCHES = 20;
    for (let i = 0; i < BATCHES; i += 1) {
      await append(changed(5));
      await new Promise((r) => setTimeout(r, 15));
    }
    const to = Number(await maxId());
    const expected = Array.from({ length: to - from }, (_, i) => String(from + 1 + i));
    try {
      await until(
        'all delivered',
        () => rs.every((r) => r.accepted.length === expected.length),
        async () => {},
        60_000,
      );
    } finally {
      stop = true;
      await Promise.all([loopA, loopB]);
      await other.close();
    }
    for (const r of rs) {
      expect(r.accepted).to.deep.equal(expected);
      expect(r.received).to.have.length(expected.length);
    }
    expect(runsOf.a).to.be.greaterThan(0);
    expect(runsOf.b).to.be.greaterThan(0);
    const { rows } = await h.deps.pg.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM job_runs WHERE job = 'webhooks' AND status = 'running'",
    );
    expect(rows[0]!.n).to.equal(0);
  });

  it('a scheduler delivers on the committed append (LISTEN events), without waiting for its cron', async function () {
    this.timeout(60_000);
    const r = await receiver();
    await hook(alice.apiKey.rawKey, { url: r.url });
    // A yearly cron: only the wake-up can deliver within this test.
    const config = { ...h.config, schedules: { ...h.config.schedules, webhooks: '0 0 0 1 1 *' } };
    const scheduler = startScheduler({ config, logger: h.deps.logger, jobs: [deliverWebhooks] });
    try {
      await scheduler.ready;
      await scheduler.listening; // the wake-up on event appends is in place
      await append(changed(1));
      const id = await maxId();
      await until(
        'delivered',
        () => r.accepted.includes(id),
        async () => {},
        20_000,
      );
    } finally {
      await scheduler.stop();
    }
  });
});
