import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signSession } from '../../../api/identity/jwt.js';
import {
  type EventFilter,
  MAX_EXAMINED_PER_PAGE,
  matchesFilter,
  pageEvents,
  readEvents,
} from '../../../domain/eventLog/readEvents.js';
import { appendEvents, appendEventsFrom, type NewEvent } from '../../../domain/tables/events.js';
import { withTransaction } from '../../../internal/pg.js';
import { seedCampaigns, seedCampaignsSpec, X, Y, type SeedCampaign } from '../../fixtures/api/campaigns/seed.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { openStream, until } from '../../helpers/sseClient.js';
import { tuplesReadBy } from '../../helpers/tuplesRead.js';

const CHAIN = 31337;
/** A grantee of the private campaign c6. */
const Z = `0x${'c3'.repeat(20)}`;

type Ev = { id: string; type: string; campaignId: string | null; payload: Record<string, unknown> };

describe('/v4/events readers (#43): reads bounded by an index, what is sent decided when it is sent', function () {
  let h: Harness;
  let s: Record<string, SeedCampaign>;
  let server: http.Server;
  let port: number;
  const id = (k: string) => s[k]!.id;
  const session = (address: string, ttlSeconds?: number) =>
    signSession({ secret: h.config.jwtSecret, address, tier: 0, ...(ttlSeconds ? { ttlSeconds } : {}) });
  const as = (address: string) => ({ Cookie: `jwt=${session(address).token}` });
  const append = (events: NewEvent[]) => withTransaction(h.deps.pg, (tx) => appendEvents(tx, events));
  /** An event about no campaign: once a stream has it, it has been sent everything before it. */
  const marker = async (n: number) => {
    await append([{ type: 'claim.indexed', chainId: CHAIN, address: `0x${'9'.repeat(40)}`, payload: { marker: n } }]);
    return (await h.deps.pg.query<{ id: string }>('SELECT max(id)::text AS id FROM events')).rows[0]!.id;
  };
  const dataOf = (stream: ReturnType<typeof openStream>) => stream.events().map((m) => JSON.parse(m.data!) as Ev);
  const setPrivate = (key: string, isPrivate: boolean) =>
    h
      .request()
      .patch(`/v4/campaigns/${id(key)}/privacy`)
      .set(as(s[key]!.creator))
      .send({ isPrivate })
      .expect(200);

  before(async function () {
    h = await createHarness({ chainIds: [CHAIN] });
    s = seedCampaignsSpec(Math.floor(Date.now() / 1000));
    await seedCampaigns(h, s);
    server = http.createServer(h.app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  after(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    await h?.close();
  });

  it('reads the creator filter through its index: a page examines the matching rows, not the log', async function () {
    // Y's campaign c2 has 3,000 events, then X's c1 three.
    await append(
      Array.from({ length: 3000 }, (_, n) => ({
        type: 'campaign.changed' as const,
        chainId: CHAIN,
        campaignDbId: id('c2'),
        payload: { n },
      })),
    );
    await append([1, 2, 3].map((n) => ({ type: 'campaign.changed' as const, campaignDbId: id('c1'), payload: { n } })));
    let page: Ev[] = [];
    const read = await tuplesReadBy(h, ['events', 'campaigns'], async (request) => {
      page = (await request.get(`/v4/events?after=0&creator=${X}`).expect(200)).body.events;
    });
    expect(page.map((e) => e.payload)).to.deep.equal([{ n: 1 }, { n: 2 }, { n: 3 }]);
    // Three index entries and their rows (and the campaign id resolution of nothing): not 3,003 rows.
    expect(read, 'rows and index entries read').to.be.below(20);
  });

  it("moves a read's cursor past every row it examined, matching or not", async function () {
    const head = await marker(0);
    await append(
      Array.from({ length: 50 }, (_, n) => ({
        type: 'campaign.changed' as const,
        campaignDbId: id('c6'),
        payload: { n },
      })),
    );
    const last = await marker(1);
    // An anonymous read of X's campaigns: c6's 50 events are X's but private, the markers not X's.
    const { rows, examined } = await readEvents(h.deps.pg, {
      after: head,
      limit: 500,
      filter: { creator: X },
      visible: 'none',
    });
    expect(rows).to.deep.equal([]);
    expect(examined).to.equal(last);
    // A full page stops at its last row.
    const page = await readEvents(h.deps.pg, { after: head, limit: 10, filter: { creator: X }, visible: 'all' });
    expect(page.rows).to.have.length(10);
    expect(page.examined).to.equal(page.rows[9]!.id);
  });

  it('reads several types through their indexes, merged in id order', async function () {
    const head = await marker(2);
    await append([
      { type: 'root.seen', chainId: CHAIN, root: `0x${'1'.repeat(64)}` },
      { type: 'campaign.ended', campaignDbId: id('c1') },
      { type: 'root.seen', chainId: CHAIN, root: `0x${'2'.repeat(64)}` },
    ]);
    const res = await h.request().get(`/v4/events?after=${head}&type=root.seen,campaign.ended,root.seen`).expect(200);
    expect(res.body.events.map((e: Ev) => e.type)).to.deep.equal(['root.seen', 'campaign.ended', 'root.seen']);
    const ids = res.body.events.map((e: Ev) => BigInt(e.id));
    expect([...ids].sort((a, b) => (a < b ? -1 : 1))).to.deep.equal(ids);
  });

  it('decides at send time: a campaign made private after the shared feed read its event is not sent to anonymous streams (F3)', async function () {
    // A first stream keeps the feed open; it reads c1's event while c1 is public.
    const first = openStream(port, '/v4/events?after=latest');
    await first.ready;
    const before = await marker(3);
    await until('the feed to read the marker', () => dataOf(first).some((e) => e.id === before));
    await append([{ type: 'campaign.changed', chainId: CHAIN, campaignDbId: id('c1'), payload: { change: 'f3' } }]);
    const event = (await h.deps.pg.query<{ id: string }>('SELECT max(id)::text AS id FROM events')).rows[0]!.id;
    await until('the public event on the first stream', () => dataOf(first).some((e) => e.id === event));
    await setPrivate('c1', true);
    try {
      // JSON hides it now; a stream resuming before it, served from the feed's window, must too.
      const page = await h.request().get(`/v4/events?after=${before}`).expect(200);
      expect(page.body.events.map((e: Ev) => e.id)).to.not.include(event);
      const resumed = openStream(port, '/v4/events', { 'last-event-id': before });
      await resumed.ready;
      const end = await marker(4);
      await until('the resumed stream to reach the marker', () => dataOf(resumed).some((e) => e.id === end));
      expect(dataOf(resumed).map((e) => e.id)).to.not.include(event);
      expect(dataOf(resumed).map((e) => e.campaignId)).to.not.include(id('c1'));
      resumed.close();
    } finally {
      first.close();
      await setPrivate('c1', false);
    }
  });

  it('a campaign made private emits an event its creator and grantees see, anonymous callers not', async function () {
    const head = await marker(5);
    await h
      .request()
      .post(`/v4/campaigns/${id('c3')}/access/grant`)
      .set(as(X))
      .send({ userAddress: Z })
      .expect(200);
    await setPrivate('c3', true);
    try {
      const read = async (headers: Record<string, string>) =>
        (await h.request().get(`/v4/events?after=${head}&type=campaign.changed`).set(headers).expect(200)).body
          .events as Ev[];
      const made = { change: 'privacy', isPrivate: true };
      expect((await read(as(X))).map((e) => [e.campaignId, e.payload])).to.deep.equal([[id('c3'), made]]);
      expect((await read(as(Z))).map((e) => [e.campaignId, e.payload])).to.deep.equal([[id('c3'), made]]);
      expect(await read({})).to.deep.equal([]);
      expect(await read(as(Y))).to.deep.equal([]);
    } finally {
      await setPrivate('c3', false);
    }
    // Public again: everyone learns of it.
    const all = (await h.request().get(`/v4/events?after=${head}&type=campaign.changed`).expect(200)).body.events;
    expect(all.at(-1)).to.deep.include({ campaignId: id('c3'), payload: { change: 'privacy', isPrivate: false } });
  });

  it("an open stream loses a private campaign when the caller's grant is revoked (F4)", async function () {
    await h
      .request()
      .post(`/v4/campaigns/${id('c6')}/access/grant`)
      .set(as(X))
      .send({ userAddress: Z })
      .expect(200);
    const stream = openStream(port, '/v4/events?after=latest', as(Z));
    await stream.ready;
    const start = await marker(6);
    await until('the stream to be level', () => dataOf(stream).some((e) => e.id === start));
    await append([{ type: 'campaign.changed', chainId: CHAIN, campaignDbId: id('c6'), payload: { n: 'granted' } }]);
    await until('the granted event', () => dataOf(stream).some((e) => e.payload.n === 'granted'));
    await h
      .request()
      .delete(`/v4/campaigns/${id('c6')}/access/revoke`)
      .set(as(X))
      .send({ userAddress: Z })
      .expect(200);
    await append([{ type: 'campaign.changed', chainId: CHAIN, campaignDbId: id('c6'), payload: { n: 'revoked' } }]);
    const end = await marker(7);
    await until('the marker after the revoke', () => dataOf(stream).some((e) => e.id === end));
    expect(dataOf(stream).map((e) => e.payload.n)).to.not.include('revoked');
    stream.close();
  });

  it('ends an open stream within seconds when its session is revoked, or expires (F4)', async function () {
    const revoked = session(X);
    const cookie = { Cookie: `jwt=${revoked.token}` };
    const stream = openStream(port, '/v4/events?after=latest', cookie);
    const expiring = openStream(port, '/v4/events?after=latest', { Cookie: `jwt=${session(X, 2).token}` });
    await Promise.all([stream.ready, expiring.ready]);
    expect([stream.status, expiring.status]).to.deep.equal([200, 200]);
    await h.request().delete('/v4/auth/revoke').set(cookie).expect(200);
    await until('the revoked session to end its stream', () => stream.ended, 5000);
    const error = stream.messages.find((m) => m.event === 'error');
    expect(JSON.parse(error!.data!)).to.include({ code: 'CREDENTIALS_ENDED' });
    await until('the expired session to end its stream', () => expiring.ended, 5000);
    expect(JSON.parse(expiring.messages.find((m) => m.event === 'error')!.data!)).to.include({
      code: 'CREDENTIALS_ENDED',
    });
  });
  it('sends promptly an append that committed after the first stream started the feed (its id taken before)', async function () {
    // An append takes its id, then the first stream starts the shared feed, then the append commits:
    // the feed must start below that id (the newest committed one, not the sequence's), or no stream
    // level with it is ever woken for that event (it waited for the next append).
    const before = await marker(8);
    const client = await h.deps.pg.connect();
    let stream: ReturnType<typeof openStream> | undefined;
    try {
      await client.query('BEGIN');
      await appendEvents(client, [
        { type: 'claim.indexed', chainId: CHAIN, address: `0x${'8'.repeat(40)}`, payload: { late: 1 } },
      ]);
      stream = openStream(port, `/v4/events?after=${before}`);
      await stream.ready;
      await until('the feed to start', () => false, 300).catch(() => undefined); // let its first read run
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const waited = await until('the late event', () => dataOf(stream!).some((e) => e.payload.late === 1), 3000);
    expect(waited, 'well under the feed poll (5 s)').to.be.below(3000);
    stream!.close();
  });
  it('bounds what one anonymous page examines: a run of hidden events is walked a page at a time, `next` past it', async function () {
    const before = await marker(10);
    const HIDDEN = 2 * MAX_EXAMINED_PER_PAGE + 100; // events of the private c6, then one public event
    await withTransaction(h.deps.pg, (tx) =>
      appendEventsFrom(
        tx,
        `SELECT 'campaign.changed', $1::int, $2::text, NULL, NULL, NULL, NULL::bigint, jsonb_build_object('hidden', g)
         FROM generate_series(1, $3::int) g`,
        [CHAIN, id('c6'), HIDDEN],
      ),
    );
    await append([
      { type: 'campaign.changed', chainId: CHAIN, campaignDbId: id('c1'), payload: { n: 'after-hidden' } },
    ]);
    const ids = (
      await h.deps.pg.query<{ id: string }>('SELECT e.id::text AS id FROM events e WHERE e.id > $1 ORDER BY e.id', [
        before,
      ])
    ).rows.map((r) => r.id);
    const pages: { events: Ev[]; next: string | null }[] = [];
    let after = before;
    for (;;) {
      const res = await h.request().get(`/v4/events?after=${after}&type=campaign.changed&limit=10`).expect(200);
      pages.push(res.body);
      if (res.body.events.length || !res.body.next) break;
      after = res.body.next;
    }
    // Each empty page examined MAX_EXAMINED_PER_PAGE hidden events and says where it stopped.
    expect(pages.map((p) => p.next)).to.deep.equal([
      ids[MAX_EXAMINED_PER_PAGE - 1],
      ids[2 * MAX_EXAMINED_PER_PAGE - 1],
      ids[HIDDEN],
    ]);
    expect(pages.map((p) => p.events.length)).to.deep.equal([0, 0, 1]);
    expect(pages[2]!.events[0]!.payload.n).to.equal('after-hidden');
    // The creator sees them all, pages filled as before.
    const own = await h
      .request()
      .get(`/v4/events?after=${before}&type=campaign.changed&limit=10`)
      .set(as(s['c6']!.creator));
    expect(own.body.events).to.have.length(10);
    expect(own.body.next).to.equal(ids[9]);
  });

  it('bounds a page whose filters never match together: one index walked, `next` past what it examined (audit h-audit)', async function () {
    const before = await marker(11);
    const N = MAX_EXAMINED_PER_PAGE + 3000; // per filter: main read at least this many entries for one page
    const Q = `0x${'d4'.repeat(20)}`;
    // Y's public campaign c2 and the address Q (no campaign), interleaved, never in one event; then one
    // event of each combination.
    await withTransaction(h.deps.pg, (tx) =>
      appendEventsFrom(
        tx,
        `SELECT CASE WHEN g % 2 = 0 THEN 'campaign.changed' ELSE 'claim.indexed' END, $1::int,
           CASE WHEN g % 2 = 0 THEN $2::text END, NULL, CASE WHEN g % 2 = 1 THEN $3::text END, NULL, NULL::bigint,
           jsonb_build_object('g', g)
         FROM generate_series(1, $4::int) g`,
        [CHAIN, id('c2'), Q, 2 * N],
      ),
    );
    await append([
      { type: 'claim.indexed', chainId: CHAIN, campaignDbId: id('c2'), address: Q, payload: { both: 1 } },
      { type: 'campaign.changed', chainId: CHAIN, campaignDbId: id('c2'), address: Q, payload: { both: 2 } },
    ]);
    await h.deps.pg.query('ANALYZE events');
    for (const [query, expected] of [
      [`creator=${Y}&address=${Q}`, [1, 2]],
      [`type=claim.indexed&creator=${Y}`, [1]],
      [`type=campaign.changed&address=${Q}`, [2]],
    ] as const) {
      const served: Ev[] = [];
      let after = before;
      let pages = 0;
      for (;;) {
        let body: { events: Ev[]; next: string | null } = { events: [], next: null };
        const read = await tuplesReadBy(h, ['events'], async (request) => {
          body = (await request.get(`/v4/events?after=${after}&${query}`).expect(200)).body;
        });
        expect(read, `${query}: index entries and rows read by one page`).to.be.at.most(MAX_EXAMINED_PER_PAGE + 20);
        served.push(...body.events);
        pages += 1;
        if (body.next === null) break;
        expect(BigInt(body.next) > BigInt(after), 'next moves on').to.equal(true);
        after = body.next;
      }
      expect(
        served.map((e) => e.payload['both']),
        query,
      ).to.deep.equal([...expected]);
      expect(pages, query).to.be.within(2, 5);
    }
    // A stream catching up reads 500 entries at a time and moves past them, matching or not.
    let after = before;
    const sent: string[] = [];
    for (let reads = 0; ; reads++) {
      expect(reads, 'reads of a stream catching up').to.be.below(40);
      const r = await readEvents(h.deps.pg, { after, limit: 500, filter: { creator: Y, address: Q }, visible: 'none' });
      sent.push(...r.rows.map((e) => e.id));
      expect(BigInt(r.examined) >= BigInt(after)).to.equal(true);
      after = r.examined;
      if (!r.more) break;
    }
    expect(sent).to.have.length(2);
  });

  it('pages of any filter combination serve exactly the matching events, whatever stops a walk', async function () {
    const before = await marker(12);
    const Q = `0x${'d5'.repeat(20)}`;
    await withTransaction(h.deps.pg, (tx) =>
      appendEventsFrom(
        tx,
        `SELECT (ARRAY['root.seen', 'root.live', 'claim.indexed', 'campaign.changed'])[1 + g % 4],
           CASE WHEN g % 3 = 0 THEN 1 ELSE $1::int END, CASE WHEN g % 5 < 2 THEN $2::text WHEN g % 5 = 2 THEN $3::text END,
           NULL, CASE WHEN g % 7 < 3 THEN $4::text END, NULL, NULL::bigint, jsonb_build_object('g', g)
         FROM generate_series(1, 120) g`,
        [CHAIN, id('c2'), id('c6'), Q],
      ),
    );
    const all = (
      await h.deps.pg.query(
        `SELECT id::text AS id, type, chain_id, campaign_db_id, opportunity_id, address, root, block_number::text AS block_number,
           retracted, payload, created_at, creator FROM events WHERE id > $1 ORDER BY id`,
        [before],
      )
    ).rows;
    const filters: EventFilter[] = [
      {},
      { chainId: CHAIN },
      { types: ['root.seen', 'root.live'], chainId: CHAIN },
      { types: ['root.seen', 'claim.indexed', 'campaign.changed'], address: Q },
      { types: ['claim.indexed', 'campaign.changed'], chainId: 1, creator: X },
      { creator: Y, address: Q },
      { campaignDbId: id('c2'), chainId: 1 },
    ];
    for (const filter of filters) {
      // c6 is private: an anonymous page leaves its events out.
      const expected = all.filter((r) => matchesFilter(r, filter) && r.campaign_db_id !== id('c6')).map((r) => r.id);
      const served: string[] = [];
      let after = before;
      for (let pages = 0; pages < 200; pages++) {
        const page = await pageEvents(h.deps.pg, { after, limit: 4, filter, visible: 'none', maxExamined: 9 });
        served.push(...page.rows.map((r) => r.id));
        if (page.next === null) break;
        after = page.next;
      }
      expect(served, JSON.stringify(filter)).to.deep.equal(expected);
    }
  });
});
