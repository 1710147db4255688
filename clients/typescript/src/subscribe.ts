/**
 * `subscribe()`: the event log (GET /v4/events) as Server-Sent Events over `fetch`, so it runs in
 * Node 20 and browsers with the client's own headers (x-api-key, cookie), which EventSource cannot
 * send. It delivers events in order, remembers the last id delivered and, after a network error or
 * a server close, reconnects with `Last-Event-ID` from it (backoff 0.5 s doubling to 30 s, reset once
 * a connection carries data), so no event is skipped or repeated across reconnects (README "Events").
 */
import type { operations } from './schema.js';
import { createSseParser } from './sseParser.js';

/** One event of the log, as GET /v4/events serves it. */
export type RewardsEvent = operations['getEvents']['responses'][200]['content']['application/json']['events'][number];

export type EventFilters = {
  type?: readonly string[];
  chainId?: number;
  campaignId?: string;
  opportunityId?: string;
  address?: string;
  /** Events about the campaigns this address created. */
  creator?: string;
};

/** Why a subscription reported an error; `fatal` ones end it, the others are followed by a reconnect. */
export type EventStreamErrorCode = 'EVENTS_EXPIRED' | 'SLOW_CLIENT' | 'HTTP' | 'NETWORK' | 'HANDLER' | (string & {});

export class EventStreamError extends Error {
  override name = 'EventStreamError';
  constructor(
    message: string,
    readonly code: EventStreamErrorCode,
    /** True when the subscription stopped; otherwise it reconnects from `lastEventId`. */
    readonly fatal: boolean,
    /** The last event id delivered to `onEvent` (null: none yet). */
    readonly lastEventId: string | null,
    readonly details: { status?: number; body?: unknown } = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export type SubscribeParams = {
  filters?: EventFilters;
  /**
   * Start after this event id (exclusive), or `'latest'`: only events appended from now on (the
   * newest id is read first with `GET /v4/events?after=latest`, then the stream resumes from it, so a
   * reconnect before the first event skips nothing). Default: the server's (`0`, the whole retained
   * log). A previous `lastEventId` continues where an earlier subscription stopped.
   */
  after?: string | number | 'latest';
  /** Called once per event, in id order; the next event waits for its promise. A throw stops the subscription. */
  onEvent: (event: RewardsEvent) => void | Promise<void>;
  /** Told of every error; `error.fatal` says whether the subscription stopped. */
  onError?: (error: EventStreamError) => void;
  signal?: AbortSignal;
  /** Backoff between reconnects (ms): `initialMs` doubling up to `maxMs`. */
  backoff?: { initialMs?: number; maxMs?: number };
  /** A connection silent this long (no event, no heartbeat) is dropped and reopened. Default 45 s (heartbeats come every 15 s). */
  idleTimeoutMs?: number;
};

export type SubscribeConnection = {
  baseUrl?: string;
  headers?: HeadersInit;
  credentials?: RequestInit['credentials'];
  fetch?: (input: Request) => Promise<Response>;
};

export type Subscription = {
  /** Stops the subscription (as aborting `signal` does). */
  close(): void;
  /** Settles when the subscription has stopped: closed, aborted, a fatal error. Never rejects. */
  readonly done: Promise<void>;
  /**
   * The last event id delivered to `onEvent` (with `after: 'latest'`, the newest id when it started,
   * until an event arrives): pass it as `after` to continue later.
   */
  readonly lastEventId: string | null;
};

/** Opens the stream and keeps it open until `close()`, `signal` or a fatal error (see the module comment). */
export function subscribeEvents(params: SubscribeParams & SubscribeConnection): Subscription {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  params.signal?.addEventListener('abort', onAbort);
  if (params.signal?.aborted) stop.abort();
  const state = { lastEventId: params.after === undefined || params.after === 'latest' ? null : String(params.after) };
  const done = run(params, state, stop.signal).finally(() => params.signal?.removeEventListener('abort', onAbort));
  return {
    close: () => stop.abort(),
    done,
    get lastEventId() {
      return state.lastEventId;
    },
  };
}

/** The stream URL for the filters (the caller's `after` only until an event has been delivered). */
export function eventStreamUrl(baseUrl: string, filters: EventFilters, after: string | null): string {
  const query = new URLSearchParams({ stream: '1' });
  if (filters.type?.length) query.set('type', filters.type.join(','));
  if (filters.chainId !== undefined) query.set('chainId', String(filters.chainId));
  if (filters.campaignId) query.set('campaignId', filters.campaignId);
  if (filters.opportunityId) query.set('opportunityId', filters.opportunityId);
  if (filters.address) query.set('address', filters.address);
  if (filters.creator) query.set('creator', filters.creator);
  if (after !== null) query.set('after', after);
  return `${baseUrl.replace(/\/+$/, '')}/v4/events?${query}`;
}

type Outcome = { kind: 'stop' } | { kind: 'retry'; error: EventStreamError; healthy: boolean };

async function run(
  p: SubscribeParams & SubscribeConnection,
  state: { lastEventId: string | null },
  signal: AbortSignal,
) {
  const initialMs = p.backoff?.initialMs ?? 500;
  const maxMs = p.backoff?.maxMs ?? 30_000;
  let delay = initialMs;
  while (!signal.aborted) {
    const outcome = await connect(p, state, signal);
    if (outcome.kind === 'stop' || signal.aborted) return;
    p.onError?.(outcome.error);
    // A connection that carried data was a success: the next failure starts the backoff over.
    if (outcome.healthy) delay = initialMs;
    await sleep(delay, signal);
    delay = Math.min(delay * 2, maxMs);
  }
}

/** One connection, read until it ends; says whether to stop or reconnect. */
async function connect(
  p: SubscribeParams & SubscribeConnection,
  state: { lastEventId: string | null },
  signal: AbortSignal,
): Promise<Outcome> {
  const fail = (code: string, message: string, fatal: boolean, details = {}, cause?: unknown) =>
    new EventStreamError(message, code, fatal, state.lastEventId, details, { cause });
  const stopWith = (error: EventStreamError): Outcome => {
    p.onError?.(error);
    return { kind: 'stop' };
  };
  const connection = new AbortController();
  const abort = () => connection.abort();
  signal.addEventListener('abort', abort);
  let healthy = false;
  let idle: ReturnType<typeof setTimeout> | undefined;
  const armIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(abort, p.idleTimeoutMs ?? 45_000);
  };
  try {
    if (p.after === 'latest' && state.lastEventId === null) {
      // Where "now" is: the newest event id, read once; every connection then resumes from an id.
      const res = await (p.fetch ?? globalThis.fetch)(
        new Request(`${(p.baseUrl ?? '').replace(/\/+$/, '')}/v4/events?after=latest`, {
          headers: new Headers(p.headers),
          signal: connection.signal,
          cache: 'no-store',
          ...(p.credentials ? { credentials: p.credentials } : {}),
        }),
      );
      const body = parseJson(await res.text().catch(() => '')) as { next?: string | null } | undefined;
      if (!res.ok || typeof body?.next !== 'string') {
        const fatal = res.ok || (res.status !== 429 && res.status !== 408 && res.status < 500);
        const error = fail('HTTP', `GET /v4/events?after=latest answered ${res.status}`, fatal, {
          status: res.status,
          body,
        });
        return fatal ? stopWith(error) : { kind: 'retry', error, healthy };
      }
      state.lastEventId = body.next;
    }
    const headers = new Headers(p.headers);
    headers.set('accept', 'text/event-stream');
    // The id we resume after: the server prefers this header to `after` (what EventSource sends too).
    if (state.lastEventId !== null) headers.set('last-event-id', state.lastEventId);
    const url = eventStreamUrl(p.baseUrl ?? '', p.filters ?? {}, state.lastEventId);
    const request = new Request(url, {
      headers,
      signal: connection.signal,
      cache: 'no-store',
      ...(p.credentials ? { credentials: p.credentials } : {}),
    });
    armIdle();
    const res = await (p.fetch ?? globalThis.fetch)(request);
    if (!res.ok || !res.body) {
      const body = await res.text().catch(() => '');
      const detail = parseJson(body);
      // 429 (too many streams) and 5xx pass; any other status is the request's fault and would repeat.
      const fatal = res.status !== 429 && res.status !== 408 && res.status < 500;
      const error = fail('HTTP', `GET /v4/events answered ${res.status}`, fatal, { status: res.status, body: detail });
      return fatal ? stopWith(error) : { kind: 'retry', error, healthy };
    }
    if (!/^text\/event-stream/i.test(res.headers.get('content-type') ?? '')) {
      await res.body.cancel().catch(() => undefined);
      const type = res.headers.get('content-type');
      return stopWith(
        fail('HTTP', `GET /v4/events answered ${type}, not text/event-stream`, true, { status: res.status }),
      );
    }
    const parser = createSseParser({ lastEventId: state.lastEventId });
    const decoder = new TextDecoder();
    const reader = res.body.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return { kind: 'retry', error: fail('NETWORK', 'the server closed the stream', false), healthy };
      // The handler's time is not the server's silence: the idle clock restarts after the batch.
      clearTimeout(idle);
      const { messages, lines } = parser.push(decoder.decode(value, { stream: true }));
      if (lines) healthy = true;
      for (const m of messages) {
        if (m.event === 'error') {
          const body = (parseJson(m.data) ?? {}) as { code?: string; reason?: string };
          const code = body.code ?? 'STREAM_ERROR';
          // Expired: events after our id are gone, so resuming would hide a gap; the caller restarts from now.
          const fatal = code === 'EVENTS_EXPIRED';
          const message = fatal
            ? `events after ${state.lastEventId} are no longer retained (EVENTS_EXPIRED): the subscription stopped; read the current state and subscribe again from the newest event id`
            : `the server ended the stream (${code}: ${body.reason ?? m.data}); resuming after ${state.lastEventId}`;
          const error = fail(code, message, fatal, { body });
          await reader.cancel().catch(() => undefined);
          return fatal ? stopWith(error) : { kind: 'retry', error, healthy };
        }
        if (signal.aborted) return { kind: 'stop' };
        const event = JSON.parse(m.data) as RewardsEvent;
        try {
          await p.onEvent(event);
        } catch (cause) {
          await reader.cancel().catch(() => undefined);
          return stopWith(fail('HANDLER', `onEvent threw on event ${event.id}`, true, {}, cause));
        }
        state.lastEventId = event.id;
      }
      armIdle();
    }
  } catch (cause) {
    if (signal.aborted) return { kind: 'stop' };
    const message = connection.signal.aborted ? 'no data within idleTimeoutMs' : 'the connection failed';
    return { kind: 'retry', error: fail('NETWORK', message, false, {}, cause), healthy };
  } finally {
    clearTimeout(idle);
    signal.removeEventListener('abort', abort);
    connection.abort();
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text || undefined;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}
