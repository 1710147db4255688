import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signSession } from '../../../api/identity/jwt.js';
import {
  createRewardsClient,
  type EventStreamError,
  type RewardsEvent,
} from '../../../clients/typescript/src/index.js';
import { appendEvents, type NewEvent } from '../../../domain/tables/events.js';
import { withTransaction } from '../../../internal/pg.js';
import { POLL_MS } from '../../../api/routes/events/eventFeed.js';
import { until } from '../../helpers/sseClient.js';
import { createReferenceDemo, type ReferenceDemo } from './referenceDemo.js';

const CHAIN = 31337;

/**
 * Issue #32 (typed client): `subscribe()` of clients/typescript over GET /v4/events on a real socket,
 * against the live demo: credentials pass through, events arrive in order, a connection the server
 * kills is resumed with Last-Event-ID (with backoff) without gaps or duplicates, an expired resume
 * point stops it with EVENTS_EXPIRED.
 */
describe('typed client subscribe() over the GET /v4/events stream, against the live demo', function () {
  let demo: ReferenceDemo;
  let server: http.Server;
  let baseUrl: string;
  /** While true the server drops every connection it accepts (the API "down"). */
  let down = false;
  /** Each /v4/events request the server saw: when, and the resume headers it carried. */
  const requests: { at: number; lastEventId: string | undefined; cookie: string | undefined }[] = [];
  const append = (events: NewEvent[]) => withTransaction(demo.h.deps.pg, (tx) => appendEvents(tx, events));
  const maxId = async () =>
    (await demo.h.deps.pg.query<{ id: string }>('SELECT coalesce(max(id), 0)::text AS id FROM events')).rows[0]!.id;
  const idsAfter = async (after: string) =>
    (
      await demo.h.deps.pg.query<{ id: string }>('SELECT id::text FROM events WHERE id > $1 ORDER BY id', [after])
    ).rows.map((r) => r.id);

  before(async function () {
    this.timeout(600_000);
    demo = await createReferenceDemo({ EVENTS_HEARTBEAT_MS: '300' });
    const handle = demo.h.app.callback();
    server = http.createServer((req, res) => {
      if (req.url?.startsWith('/v4/events')) {
        const header = (name: string) => req.headers[name] as string | undefined;
        requests.push({ at: Date.now(), lastEventId: header('last-event-id'), cookie: header('cookie') });
      }
      if (down) req.socket.destroy();
      else void handle(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    await demo?.close();
  });

  it("passes the client's credentials: a private campaign's events reach its creator, backlog then live, in order", async function () {
    const { rows } = await demo.h.deps.pg.query<{ id: string; creator: string }>(
      'SELECT id, lower(creator) AS creator FROM campaigns ORDER BY id LIMIT 1',
    );
    const campaign = rows[0]!;
    const cookie = `jwt=${signSession({ secret: demo.h.config.jwtSecret, address: campaign.creator, tier: 0 }).token}`;
    const setPrivate = (isPrivate: boolean) =>
      demo.h
        .request()
        .patch(`/v4/campaigns/${campaign.id}/privacy`)
        .set({ Cookie: cookie })
        .send({ isPrivate })
        .expect(200);
    await setPrivate(true);
    try {
      const api = createRewardsClient({ baseUrl, headers: { cookie } });
      const got: RewardsEvent[] = [];
      const stop = new AbortController();
      const sub = api.subscribe({
        filters: { campaignId: campaign.id },
        after: 0,
        onEvent: (e) => void got.push(e),
        signal: stop.signal,
      });
      // The same subscription without the session sees nothing of it (as for a campaign that does not exist).
      const anonymous: RewardsEvent[] = [];
      const anonymousSub = createRewardsClient({ baseUrl }).subscribe({
        filters: { campaignId: campaign.id },
        after: 0,
        onEvent: (e) => void anonymous.push(e),
      });
      await until('the backlog', () => got.some((e) => e.type === 'campaign.created'));
      expect(requests.some((r) => r.cookie === cookie)).to.equal(true);
      const live: NewEvent[] = [1, 2, 3].map((n) => ({
        type: 'campaign.changed',
        chainId: CHAIN,
        campaignDbId: campaign.id,
        payload: { change: 'test', n },
      }));
      await append(live);
      await until('the live events', () => got.filter((e) => e.payload['change'] === 'test').length === 3, 2000);
      expect(got.filter((e) => e.payload['change'] === 'test').map((e) => e.payload['n'])).to.deep.equal([1, 2, 3]);
      expect(got.every((e) => e.campaignId === campaign.id)).to.equal(true);
      const ids = got.map((e) => BigInt(e.id));
      expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).to.equal(true);
      expect(sub.lastEventId).to.equal(got.at(-1)!.id);
      // Aborting the signal ends it; nothing connects again.
      expect(anonymous).to.deep.equal([]);
      anonymousSub.close();
      stop.abort();
      await Promise.all([sub.done, anonymousSub.done]);
      const seen = requests.length;
      await new Promise((r) => setTimeout(r, 300));
      expect(requests.length).to.equal(seen);
    } finally {
      await setPrivate(false);
    }
  });

  it('resumes with Last-Event-ID after the server kills the connection and refuses for a while: no gap, no duplicate, doubling backoff', async function () {
    const head = await maxId();
    const got: string[] = [];
    const errors: EventStreamError[] = [];
    const api = createRewardsClient({ baseUrl });
    const sub = api.subscribe({
      after: head,
      onEvent: (e) => void got.push(e.id),
      onError: (e) => void errors.push(e),
      backoff: { initialMs: 100, maxMs: 400 },
    });
    try {
      await append([{ type: 'root.seen', chainId: CHAIN, root: `0x${'a'.repeat(64)}` }]);
      await append([{ type: 'root.seen', chainId: CHAIN, root: `0x${'b'.repeat(64)}` }]);
      // Within the feed's poll (the safety net when a notification is missed, e.g. while the previous
      // test's feed closes under a loaded CI machine: seen once past 5 s) plus margin.
      await until('the first events', () => got.length === 2, POLL_MS + 5000);
      const lastBeforeKill = got.at(-1)!;
      // The API goes away: the open stream is cut, new connections are dropped on accept.
      down = true;
      const killedAt = Date.now();
      const before = requests.length;
      server.closeAllConnections();
      await append(
        [1, 2, 3].map((n) => ({
          type: 'claim.indexed',
          chainId: CHAIN,
          address: `0x${'6'.repeat(40)}`,
          payload: { n },
        })),
      );
      await until('four refused reconnects', () => requests.length - before >= 4, 10_000);
      down = false;
      await until('the events committed while it was down', () => got.length === 5, 10_000);
      await append([{ type: 'root.seen', chainId: CHAIN, root: `0x${'e'.repeat(64)}` }]);
      await until('a live event after the resume', () => got.length === 6, 2000);
      // A last event, once received, closes the list: a duplicate or a replay would have come before it.
      await append([{ type: 'root.seen', chainId: CHAIN, root: `0x${'f'.repeat(64)}` }]);
      await until('the closing event', () => got.length >= 7, 2000);
      // Every event after the start, once each, in id order.
      expect(got).to.deep.equal(await idsAfter(head));
      const reconnects = requests.slice(before);
      expect(reconnects.length).to.be.at.least(5);
      // Each reconnect resumed after the last event delivered, not from the start.
      for (const r of reconnects.slice(0, 4)) expect(r.lastEventId).to.equal(lastBeforeKill);
      // Backoff: 100 ms after a connection that carried data, then doubling (200, 400) up to maxMs.
      const at = [killedAt, ...reconnects.map((r) => r.at)];
      const gaps = at.slice(1, 5).map((t, i) => t - at[i]!);
      const floors = [100, 200, 400, 400];
      gaps.forEach((gap, i) => expect(gap, `gap ${i}: ${gaps.join(', ')}`).to.be.at.least(floors[i]! - 10));
      expect(errors.length).to.be.at.least(4);
      expect(errors.every((e) => e.code === 'NETWORK' && !e.fatal)).to.equal(true);
    } finally {
      sub.close();
      await sub.done;
    }
  });

  it("after: 'latest' starts with only new events, and a reconnect before the first one misses nothing (#44)", async function () {
    const { rows } = await demo.h.deps.pg.query<{ id: string }>('SELECT id FROM campaigns ORDER BY id LIMIT 1');
    const campaign = rows[0]!.id;
    const newest = await maxId();
    expect(BigInt(newest) > 0n, 'the demo has a backlog to skip').to.equal(true);
    const got: RewardsEvent[] = [];
    const errors: EventStreamError[] = [];
    const sub = createRewardsClient({ baseUrl }).subscribe({
      after: 'latest',
      filters: { campaignId: campaign },
      onEvent: (e) => void got.push(e),
      onError: (e) => void errors.push(e),
      backoff: { initialMs: 20, maxMs: 40 },
    });
    try {
      await until('the stream to be open', () => sub.lastEventId === newest);
      const change = (n: number): NewEvent => ({
        type: 'campaign.changed',
        chainId: CHAIN,
        campaignDbId: campaign,
        payload: { change: 'latest', n },
      });
      // The API goes down before any event was delivered; an event is appended meanwhile.
      down = true;
      server.closeAllConnections();
      await append([change(1)]);
      await until('a failed reconnect', () => errors.length > 0);
      down = false;
      await append([change(2)]);
      await until('both new events', () => got.length === 2);
      expect(got.map((e) => e.payload['n'])).to.deep.equal([1, 2]);
      expect(
        errors.every((e) => !e.fatal),
        'no 400: latest is not sent as an event id',
      ).to.equal(true);
    } finally {
      down = false;
      sub.close();
      await sub.done;
    }
  });

  it('a page on another origin may send Last-Event-ID: the CORS preflight of /v4/events allows it', async function () {
    const res = await demo.h
      .request()
      .options('/v4/events')
      .set('Origin', 'https://elsewhere.example')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'last-event-id,x-api-key')
      .expect(204);
    const allowed = String(res.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/);
    expect(allowed).to.include.members(['last-event-id', 'x-api-key']);
  });

  it('stops with a fatal EVENTS_EXPIRED error when its resume point is no longer retained', async function () {
    const deleted = (
      await demo.h.deps.pg.query<{ id: string }>(
        'DELETE FROM events WHERE id IN (SELECT id FROM events ORDER BY id LIMIT 3) RETURNING id::text',
      )
    ).rows.map((r) => r.id);
    const errors: EventStreamError[] = [];
    const got: string[] = [];
    const seen = requests.length;
    const sub = createRewardsClient({ baseUrl }).subscribe({
      after: deleted.sort((a, b) => Number(a) - Number(b))[0]!,
      onEvent: (e) => void got.push(e.id),
      onError: (e) => void errors.push(e),
      backoff: { initialMs: 50 },
    });
    await sub.done;
    expect(got).to.deep.equal([]);
    expect(errors).to.have.length(1);
    expect(errors[0]).to.deep.include({ code: 'EVENTS_EXPIRED', fatal: true, name: 'EventStreamError' });
    expect(errors[0]!.message).to.match(/no longer retained/);
    // It did not try again.
    await new Promise((r) => setTimeout(r, 200));
    expect(requests.length - seen).to.equal(1);
  });
});

/**
 * The server ending a stream itself (SLOW_CLIENT, or a plain close), with CRLF line ends in small
 * chunks: a local SSE server scripted per connection, so each case happens exactly once.
 */
describe('typed client subscribe(): a stream the server ends is resumed from the last event delivered', function () {
  it('reconnects after SLOW_CLIENT and after a plain end, with Last-Event-ID, and delivers each event once', async function () {
    const seen: (string | undefined)[] = [];
    const sse = (id: number) =>
      `id: ${id}\r\nevent: root.seen\r\ndata: {"id":"${id}",\r\ndata: "type":"root.seen"}\r\n\r\n`;
    const scripts: string[][] = [
      [
        ': hello\r\n\r\n',
        sse(1),
        sse(2),
        'event: error\r\ndata: {"code":"SLOW_CLIENT","reason":"slow","lastEventId":"2"}\r\n\r\n',
      ],
      [sse(3)],
      [sse(4)],
    ];
    const server = http.createServer((req, res) => {
      seen.push(req.headers['last-event-id'] as string | undefined);
      const script = scripts[seen.length - 1];
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (!script) return; // the last connection stays open
      // Split every message in two writes, mid-line, to cross chunk boundaries.
      for (const text of script) {
        res.write(text.slice(0, 5));
        res.write(text.slice(5));
      }
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const got: string[] = [];
    const errors: EventStreamError[] = [];
    const sub = createRewardsClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    }).subscribe({
      onEvent: (e) => void got.push(e.id),
      onError: (e) => void errors.push(e),
      backoff: { initialMs: 20 },
    });
    try {
      await until('four events and the open fourth connection', () => got.length === 4 && seen.length === 4);
      expect(got).to.deep.equal(['1', '2', '3', '4']);
      expect(seen).to.deep.equal([undefined, '2', '3', '4']);
      expect(errors.map((e) => [e.code, e.fatal, e.lastEventId])).to.deep.equal([
        ['SLOW_CLIENT', false, '2'],
        ['NETWORK', false, '3'],
        ['NETWORK', false, '4'],
      ]);
    } finally {
      sub.close();
      await sub.done;
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('stops without retrying on a 400, and on an onEvent that throws (its event is not counted as delivered)', async function () {
    let connections = 0;
    const server = http.createServer((_req, res) => {
      connections++;
      if (connections === 1) {
        res.writeHead(400, { 'content-type': 'application/problem+json' }).end('{"status":400,"detail":"bad type"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('id: 8\nevent: x\ndata: {"id":"8"}\n\nid: 9\nevent: x\ndata: {"id":"9"}\n\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const api = createRewardsClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    try {
      const errors: EventStreamError[] = [];
      await api.subscribe({ onEvent: () => undefined, onError: (e) => void errors.push(e), backoff: { initialMs: 10 } })
        .done;
      expect(errors.map((e) => [e.code, e.fatal, e.details.status])).to.deep.equal([['HTTP', true, 400]]);
      expect(errors[0]!.details.body).to.deep.include({ detail: 'bad type' });
      const failing = api.subscribe({
        onEvent: (e) => {
          if (e.id === '9') throw new Error('handler failed');
        },
        onError: (e) => void errors.push(e),
      });
      await failing.done;
      expect(errors.slice(1).map((e) => [e.code, e.fatal, e.lastEventId])).to.deep.equal([['HANDLER', true, '8']]);
      expect(failing.lastEventId).to.equal('8');
      expect(connections).to.equal(2);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
