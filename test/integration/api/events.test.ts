import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signSession } from '../../../api/identity/jwt.js';
import { appendEvents } from '../../../domain/tables/events.js';
import { rollbackChain } from '../../../indexer/store/rollback.js';
import { withTransaction } from '../../../internal/pg.js';
import { eventually } from '../../helpers/eventually.js';
import { openStream, until } from '../../helpers/sseClient.js';
import { createReferenceDemo, type ReferenceDemo } from './referenceDemo.js';

const CHAIN = 31337;
/** Bytes a stream client may leave unread here: small, so a client that never reads is dropped fast. */
const MAX_BUFFER = 4096;
const HEARTBEAT_MS = 300;
/** How long it may leave them unread. */
const STALL_MS = 300;

type Ev = {
  id: string;
  type: string;
  chainId: number | null;
  campaignId: string | null;
  address: string | null;
  payload: Record<string, unknown>;
};
describe('/v4/events: the change log, written with its changes, paged and streamed', function () {
  let demo: ReferenceDemo;
  let server: http.Server;
  let port: number;
  const get = (path: string) => demo.h.request().get(path);
  const as = (address: string) => ({
    Cookie: `jwt=${signSession({ secret: demo.h.config.jwtSecret, address, tier: 0 }).token}`,
  });
  const maxId = async () =>
    (await demo.h.deps.pg.query<{ id: string }>('SELECT coalesce(max(id), 0)::text AS id FROM events')).rows[0]!.id;
  /** Every event the caller may read, paged through with `after`. */
  const readAll = async (query = '', headers: Record<string, string> = {}) => {
    const all: Ev[] = [];
    let after = '0';
    for (;;) {
      const res = await get(`/v4/events?after=${after}&limit=7${query}`).set(headers).expect(200);
      all.push(...res.body.events);
      if (res.body.next === null) return all;
      after = res.body.next;
    }
  };

  before(async function () {
    this.timeout(600_000);
    demo = await createReferenceDemo({
      EVENTS_STREAM_MAX_BUFFER_BYTES: String(MAX_BUFFER),
      EVENTS_HEARTBEAT_MS: String(HEARTBEAT_MS),
      EVENTS_STREAM_STALL_MS: String(STALL_MS),
    });
    server = http.createServer(demo.h.app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  after(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    await demo?.close();
  });

  it('the campaigns, roots and claims jobs wrote one event per change, in the same block', async function () {
    const count = async (sql: string) => (await demo.h.deps.pg.query<{ n: number }>(sql)).rows[0]!.n;
    const pairs: [string, string][] = [
      [
        "SELECT count(*)::int AS n FROM events WHERE type = 'campaign.created'",
        'SELECT count(*)::int AS n FROM campaigns',
      ],
      ["SELECT count(*)::int AS n FROM events WHERE type = 'root.seen'", 'SELECT count(*)::int AS n FROM roots'],
      ["SELECT count(*)::int AS n FROM events WHERE type = 'claim.indexed'", 'SELECT count(*)::int AS n FROM claims'],
    ];
    for (const [events, rows] of pairs) {
      expect(await count(rows)).to.be.greaterThan(0);
      expect(await count(events), events).to.equal(await count(rows));
    }
    // Each event names its row: the campaign at its block, the claim's recipient at its block.
    expect(
      await count(
        `SELECT count(*)::int AS n FROM events e JOIN campaigns c ON c.id = e.campaign_db_id
         WHERE e.type = 'campaign.created' AND e.block_number = c.block_number AND e.address = lower(c.creator)`,
      ),
    ).to.equal(await count('SELECT count(*)::int AS n FROM campaigns'));
    expect(
      await count(
        `SELECT count(*)::int AS n FROM events e JOIN claims c ON c.chain_id = e.chain_id AND c.block_number = e.block_number
           AND e.address = lower(c.recipient) AND e.payload->>'txHash' = c.tx_hash
         WHERE e.type = 'claim.indexed'`,
      ),
    ).to.equal(await count('SELECT count(*)::int AS n FROM claims'));
  });

  it('a failing transaction leaves no event', async function () {
    const before = await maxId();
    const failed = await withTransaction(demo.h.deps.pg, async (tx) => {
      await appendEvents(tx, [{ type: 'campaign.changed', chainId: CHAIN, payload: { change: 'test' } }]);
      throw new Error('the change failed');
    }).catch((e: Error) => e);
    expect(failed).to.be.instanceOf(Error);
    expect(await maxId()).to.equal(before);
  });

  it('a reorg rollback retracts the events of the blocks it removes, in its transaction', async function () {
    const client = await demo.h.deps.pg.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ block: string }>(
        'SELECT max(block_number)::text AS block FROM claims WHERE chain_id = $1',
        [CHAIN],
      );
      const ancestor = Number(rows[0]!.block) - 1;
      const above = (
        await client.query<{ id: string }>(
          'SELECT id::text FROM events WHERE chain_id = $1 AND block_number > $2 ORDER BY id',
          [CHAIN, ancestor],
        )
      ).rows.map((r) => r.id);
      expect(above).to.not.be.empty;
      const result = await rollbackChain(client, CHAIN, ancestor);
      expect(result.deleted['events']).to.equal(above.length);
      const retracted = await client.query<{ payload: { ids: string[]; ancestor: number } }>(
        "SELECT payload FROM events WHERE type = 'retracted' ORDER BY id DESC LIMIT 1",
      );
      expect(retracted.rows[0]!.payload).to.deep.equal({ ids: above, ancestor });
      const flagged = await client.query('SELECT 1 FROM events WHERE id = ANY($1::bigint[]) AND NOT retracted', [
        above,
      ]);
      expect(flagged.rowCount).to.equal(0);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('pages by id (after exclusive, oldest first) and filters by type, chain, campaign, opportunity and address', async function () {
    const all = await readAll();
    const ids = all.map((e) => BigInt(e.id));
    expect(ids.length).to.be.greaterThan(10);
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).to.equal(true);
    const first = await get('/v4/events?limit=3').expect(200);
    expect(first.body.events.map((e: Ev) => e.id)).to.deep.equal(all.slice(0, 3).map((e) => e.id));
    expect(first.body.next).to.equal(all[2]!.id);
    const past = await get(`/v4/events?after=${all.at(-1)!.id}`).expect(200);
    expect(past.body).to.deep.equal({ events: [], next: null });

    const claims = await readAll('&type=claim.indexed');
    expect(claims.length).to.equal(all.filter((e) => e.type === 'claim.indexed').length);
    expect(claims.every((e) => e.type === 'claim.indexed')).to.equal(true);
    const recipient = claims[0]!.address!;
    const mine = await readAll(`&address=${recipient.toUpperCase().replace('0X', '0x')}`);
    expect(mine.map((e) => e.id)).to.deep.equal(all.filter((e) => e.address === recipient).map((e) => e.id));
    const created = all.find((e) => e.type === 'campaign.created')!;
    const ofCampaign = await readAll(`&campaignId=${created.campaignId}`);
    expect(ofCampaign.map((e) => e.id)).to.deep.equal(
      all.filter((e) => e.campaignId === created.campaignId).map((e) => e.id),
    );
    const opportunityId = (created as Ev & { opportunityId: string }).opportunityId;
    const ofOpportunity = await readAll(`&opportunityId=${opportunityId}`);
    expect(ofOpportunity.length).to.be.greaterThan(0);
    expect(ofOpportunity.every((e) => (e as Ev & { opportunityId: string }).opportunityId === opportunityId)).to.equal(
      true,
    );
    expect(await readAll(`&chainId=${CHAIN}`)).to.have.length(all.filter((e) => e.chainId === CHAIN).length);
    expect(await readAll('&chainId=1')).to.deep.equal([]);
    expect(await readAll('&type=root.seen,claim.indexed')).to.have.length(
      all.filter((e) => e.type === 'root.seen' || e.type === 'claim.indexed').length,
    );
    await get('/v4/events?limit=1001').expect(400);
    await get('/v4/events?type=nope').expect(400);
  });

  it("a private campaign's events reach its creator, not anonymous callers; made public, everyone and a campaign.changed", async function () {
    const { rows } = await demo.h.deps.pg.query<{ id: string; creator: string }>(
      'SELECT id, lower(creator) AS creator FROM campaigns ORDER BY id LIMIT 1',
    );
    const campaign = rows[0]!;
    await get(`/v4/campaigns/${campaign.id}/privacy`)
      .set(as(campaign.creator))
      .expect(200)
      .then((r) => expect(r.body.isPrivate).to.equal(false));
    const patch = (isPrivate: boolean) =>
      demo.h
        .request()
        .patch(`/v4/campaigns/${campaign.id}/privacy`)
        .set(as(campaign.creator))
        .send({ isPrivate })
        .expect(200);
    await patch(true);
    try {
      const anonymous = await readAll();
      expect(anonymous.some((e) => e.campaignId === campaign.id)).to.equal(false);
      expect(JSON.stringify(anonymous)).to.not.include(campaign.id);
      const other = await readAll('', as(`0x${'7'.repeat(40)}`));
      expect(other.some((e) => e.campaignId === campaign.id)).to.equal(false);
      const creator = await readAll('', as(campaign.creator));
      expect(creator.some((e) => e.campaignId === campaign.id && e.type === 'campaign.created')).to.equal(true);
      // Named explicitly: as for a campaign that does not exist.
      const named = await get(`/v4/events?campaignId=${campaign.id}`).expect(200);
      expect(named.body).to.deep.equal({ events: [], next: null });
      // A stream for an anonymous caller skips it as well.
      const stream = openStream(port, `/v4/events?type=campaign.created`);
      await stream.ready;
      const total = anonymous.filter((e) => e.type === 'campaign.created').length;
      // In id order: the private campaign's event (the first campaign's) would come before the last of these.
      await until('the anonymous stream to catch up', () => stream.events().length >= total);
      expect(stream.events().map((m) => JSON.parse(m.data!).campaignId)).to.not.include(campaign.id);
      stream.close();
    } finally {
      await patch(false);
    }
    const after = await readAll('&type=campaign.changed');
    expect(after.at(-1)).to.deep.include({ campaignId: campaign.id, type: 'campaign.changed' });
    expect(after.at(-1)!.payload).to.deep.equal({ change: 'privacy', isPrivate: false });
  });

  it('streams a new event within a second of its commit, with heartbeats in between', async function () {
    // `stream=1` asks for the stream without an Accept header.
    const stream = openStream(port, `/v4/events?after=${await maxId()}&stream=1`, { accept: '*/*' });
    await stream.ready;
    expect(stream.status).to.equal(200);
    expect(stream.res!.headers['content-type']).to.match(/^text\/event-stream/);
    await until('a heartbeat', () => stream.messages.some((m) => m.comment === 'heartbeat'), 3 * HEARTBEAT_MS);
    // The stream is past its first read (it sent a heartbeat): commit a change.
    const t0 = Date.now();
    await withTransaction(demo.h.deps.pg, (tx) =>
      appendEvents(tx, [{ type: 'claim.indexed', chainId: CHAIN, address: `0x${'5'.repeat(40)}`, payload: { n: 1 } }]),
    );
    await until('the pushed event', () => stream.events().length === 1, 1000);
    const latency = Date.now() - t0;
    const pushed = stream.events()[0]!;
    expect(pushed.event).to.equal('claim.indexed');
    expect(JSON.parse(pushed.data!)).to.deep.include({ id: pushed.id, address: `0x${'5'.repeat(40)}` });
    expect(pushed.id).to.equal(await maxId());
    expect(latency).to.be.below(1000);
    stream.close();
  });

  it('after=latest starts at the newest event; creator filters by the campaign creator, paged and streamed alike', async function () {
    const latest = await get('/v4/events?after=latest').expect(200);
    expect(latest.body).to.deep.equal({ events: [], next: await maxId() });
    await get('/v4/events?after=soon').expect(400);

    const { rows } = await demo.h.deps.pg.query<{ id: string; creator: string }>(
      `SELECT DISTINCT ON (lower(creator)) id, lower(creator) AS creator FROM campaigns ORDER BY lower(creator), id`,
    );
    expect(rows.length, 'campaigns of two creators').to.be.greaterThan(1);
    const [mine, theirs] = rows as [{ id: string; creator: string }, { id: string; creator: string }];
    const all = await readAll();
    const created = await demo.h.deps.pg.query<{ id: string }>('SELECT id FROM campaigns WHERE lower(creator) = $1', [
      mine.creator,
    ]);
    const ofMine = new Set(created.rows.map((r) => r.id));
    const paged = await readAll(`&creator=${mine.creator.toUpperCase().replace('0X', '0x')}`);
    expect(paged.length).to.be.greaterThan(0);
    expect(paged.map((e) => e.id)).to.deep.equal(
      all.filter((e) => e.campaignId !== null && ofMine.has(e.campaignId)).map((e) => e.id),
    );

    // Live: one shared read of the log, filtered per stream; a private campaign's event still by the SQL rule.
    const byCreator = openStream(port, `/v4/events?after=latest&creator=${mine.creator}`);
    const anonymous = openStream(port, '/v4/events?after=latest&type=campaign.changed');
    await Promise.all([byCreator.ready, anonymous.ready]);
    await demo.h.deps.pg.query(
      `INSERT INTO campaign_privacy (campaign_db_id, is_private, updated_by) VALUES ($1, true, $2)
       ON CONFLICT (campaign_db_id) DO UPDATE SET is_private = true`,
      [theirs.id, theirs.creator],
    );
    try {
      const append = (campaignDbId: string, n: number) =>
        withTransaction(demo.h.deps.pg, (tx) =>
          appendEvents(tx, [{ type: 'campaign.changed', chainId: CHAIN, campaignDbId, payload: { n } }]),
        );
      await append(theirs.id, 1);
      await append(mine.id, 2);
      await until('the creator stream', () => byCreator.events().length === 1);
      await until('the anonymous stream', () => anonymous.events().length === 1);
      // Streams deliver in id order: theirs (appended first) would have come before mine.
      expect(byCreator.events().map((m) => JSON.parse(m.data!).payload)).to.deep.equal([{ n: 2 }]);
      expect(anonymous.events().map((m) => JSON.parse(m.data!).campaignId)).to.deep.equal([mine.id]);
    } finally {
      byCreator.close();
      anonymous.close();
      await demo.h.deps.pg.query('UPDATE campaign_privacy SET is_private = false WHERE campaign_db_id = $1', [
        theirs.id,
      ]);
    }
  });

  it('resumes from Last-Event-ID (over after=) without gaps or duplicates, live events included', async function () {
    const all = await readAll();
    const from = all[Math.floor(all.length / 2)]!.id;
    const stream = openStream(port, '/v4/events?after=0', { 'last-event-id': from });
    await stream.ready;
    const expected = all.filter((e) => BigInt(e.id) > BigInt(from)).map((e) => e.id);
    await until('the backlog', () => stream.events().length >= expected.length);
    await withTransaction(demo.h.deps.pg, (tx) =>
      appendEvents(tx, [
        { type: 'root.seen', chainId: CHAIN, root: `0x${'c'.repeat(64)}` },
        { type: 'root.seen', chainId: CHAIN, root: `0x${'d'.repeat(64)}` },
      ]),
    );
    await until('the live events', () => stream.events().length >= expected.length + 2, 2000);
    // A last event, once received, closes the list: a duplicate or a replay would have come before it.
    await withTransaction(demo.h.deps.pg, (tx) =>
      appendEvents(tx, [{ type: 'root.seen', chainId: CHAIN, root: `0x${'e'.repeat(64)}` }]),
    );
    await until('the closing event', () => stream.events().length >= expected.length + 3, 2000);
    const got = stream.events().map((m) => m.id!);
    const now = await maxId();
    expect(got).to.deep.equal([...expected, String(BigInt(now) - 2n), String(BigInt(now) - 1n), now]);
    stream.close();
  });

  it('refuses a Last-Event-ID that is not an event id as every validation error is refused (VALIDATION_FAILED, naming the header)', async function () {
    const res = await get('/v4/events').set('accept', 'text/event-stream').set('last-event-id', 'abc').expect(400);
    expect(res.body).to.include({ code: 'VALIDATION_FAILED', type: '/problems/validation-failed' });
    expect(res.body.errors).to.deep.equal([{ field: 'Last-Event-ID', message: 'must be a decimal event id' }]);
  });

  it('bounds concurrent streams per caller: a third anonymous stream is a 429', async function () {
    const head = await maxId();
    const a = openStream(port, `/v4/events?after=${head}`);
    const b = openStream(port, `/v4/events?after=${head}`);
    await Promise.all([a.ready, b.ready]);
    const c = openStream(port, `/v4/events?after=${head}`);
    await c.ready;
    expect([a.status, b.status, c.status]).to.deep.equal([200, 200, 429]);
    // A session is another caller, with a slot of its own.
    const d = openStream(port, `/v4/events?after=${head}`, as(`0x${'8'.repeat(40)}`));
    await d.ready;
    expect(d.status).to.equal(200);
    for (const s of [a, b, c, d]) s.close();
    // Closed streams give their slots back (once the server has seen them close).
    await eventually(
      async () => {
        const e = openStream(port, `/v4/events?after=${head}`);
        await e.ready;
        e.close();
        expect(e.status).to.equal(200);
      },
      { what: 'a slot given back' },
    );
  });

  it('drops a client that does not read with an error event instead of buffering for it', async function () {
    const stream = openStream(port, `/v4/events?after=${await maxId()}`);
    await stream.ready;
    stream.res!.pause();
    // ~40 MB of events: more than the socket buffers of a client that reads nothing can hold (loopback autotunes them to several MB).
    await withTransaction(demo.h.deps.pg, async (tx) => {
      await tx.query(
        `INSERT INTO events (type, chain_id, payload)
         SELECT 'claim.indexed', $1, jsonb_build_object('pad', repeat('x', 10000)) FROM generate_series(1, 4000)`,
        [CHAIN],
      );
    });
    // Long past STALL_MS with its buffers full: dropped.
    await new Promise((r) => setTimeout(r, 3000));
    stream.res!.resume();
    await until('the end of the dropped stream', () => stream.ended, 10_000).catch((e: Error) => {
      throw new Error(
        `${e.message} (${stream.events().length} events received, last ${JSON.stringify(stream.messages.at(-1)).slice(0, 300)})`,
      );
    });
    const last = stream.messages.at(-1)!;
    expect(last.event).to.equal('error');
    expect(JSON.parse(last.data!)).to.deep.include({ code: 'SLOW_CLIENT' });
    const received = stream.events();
    expect(received.length).to.be.greaterThan(0).and.below(4000);
    // What it did get is a gapless prefix it can resume after.
    expect(JSON.parse(last.data!).lastEventId).to.equal(received.at(-1)!.id);
  });

  it('retention deletes events older than EVENTS_RETENTION_DAYS; an expired resume point is a 410, or an error event', async function () {
    const oldIds = (
      await demo.h.deps.pg.query<{ id: string }>(
        `UPDATE events SET created_at = now() - interval '8 days' WHERE id IN (SELECT id FROM events ORDER BY id LIMIT 5) RETURNING id::text`,
      )
    ).rows.map((r) => r.id);
    const total = (await demo.h.deps.pg.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;
    const run = await demo.h.runJob('retention');
    expect(run.status).to.equal('success');
    const recorded = await demo.h.deps.pg.query<{ counts: Record<string, number> }>(
      "SELECT counts FROM job_runs WHERE job = 'retention' ORDER BY id DESC LIMIT 1",
    );
    expect(recorded.rows[0]!.counts['events']).to.equal(5);
    const left = await demo.h.deps.pg.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM events WHERE id = ANY($1::bigint[])',
      [oldIds],
    );
    expect(left.rows[0]!.n).to.equal(0);
    expect((await demo.h.deps.pg.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n).to.equal(
      total - 5,
    );
    const expired = await get(`/v4/events?after=${oldIds[0]}`).expect(410);
    expect(expired.body.detail).to.match(/no longer retained/);
    // Just below the oldest retained id is still a valid resume point: nothing after it was deleted.
    const oldest = (await demo.h.deps.pg.query<{ id: string }>('SELECT min(id)::text AS id FROM events')).rows[0]!.id;
    await get(`/v4/events?after=${BigInt(oldest) - 1n}`).expect(200);
    const stream = openStream(port, '/v4/events', { 'last-event-id': oldIds[0]! });
    await stream.ready;
    await until('the end of the expired stream', () => stream.ended);
    const last = stream.messages.at(-1)!;
    expect(last.event).to.equal('error');
    expect(JSON.parse(last.data!)).to.deep.include({ code: 'EVENTS_EXPIRED' });
    expect(stream.events()).to.deep.equal([]);
  });
});
