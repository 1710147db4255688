import type { Context } from 'koa';
import { readerVisibility } from '../../../domain/eventLog/eventReader.js';
import {
  type EventFilter,
  isExpired,
  latestEventId,
  pageEvents,
  oldestEventId,
} from '../../../domain/eventLog/readEvents.js';
import { serializeEvent } from '../../../domain/eventLog/serializeEvent.js';
import type { ApiDeps } from '../../deps.js';
import { AppError } from '../../errors.js';
import type { AuthState } from '../../identity/types.js';
import { clientKeyOf } from '../../middleware/clientAddress.js';
import { type CampaignVisibility, resolveVisibleCampaignDbId } from '../../visibility/campaignVisibility.js';
import type { Handler } from '../../validate.js';
import type { EventFeed } from './eventFeed.js';
import type { ListEventsQuery, listEventsQuery } from './schema.js';
import { toSseError } from './serialize.js';
import { eventReaderOf, streamCredentials } from './streamCredentials.js';
import { type StreamCaller, streamCaller, type StreamSlots } from '../../reads/events/streamSlots.js';
import { isGone, streamEvents } from './streamEvents.js';
import { PROBLEMS } from '../../problems/registry.js';

/**
 * GET /v4/events: JSON pages of the event log after `after`, or (Accept: text/event-stream, or
 * `stream=1`) the same log as Server-Sent Events resuming from Last-Event-ID / `after`.
 * Events about a campaign the caller may not see are left out (one visibility rule). Table events.
 */
export function listEventsHandler(
  deps: ApiDeps,
  { feed, slots }: { feed: EventFeed; slots: StreamSlots },
): Handler<{ query: typeof listEventsQuery }> {
  const clientKey = clientKeyOf(deps.config.trustedProxies);
  return async (ctx) => {
    const q = ctx.state.query;
    // JSON or a stream by Accept: a cache must keep them apart.
    ctx.vary('Accept');
    const reader = eventReaderOf(ctx.state);
    const visible = await readerVisibility(deps.pg, reader);
    const filter = await filterOf(deps, q, visible);
    if (wantsStream(ctx, q)) {
      await serveStream(deps, ctx, {
        q,
        filter,
        state: ctx.state,
        feed,
        slots,
        caller: streamCaller(ctx.state, clientKey(ctx)),
      });
      return;
    }
    const after = await afterOf(deps, q.after);
    if (isExpired(after, await oldestEventId(deps.pg)))
      throw new AppError(
        PROBLEMS.EVENTS_EXPIRED,
        `Events after ${after} are no longer retained: start again from after=0`,
        {
          extensions: { oldestId: await oldestEventId(deps.pg) },
        },
      );
    const page = filter
      ? await pageEvents(deps.pg, { after, limit: q.limit, filter, visible })
      : { rows: [], next: null };
    ctx.set('cache-control', 'private, no-store');
    // after=latest: an empty page whose `next` is where to read on from.
    ctx.body = { events: page.rows.map(serializeEvent), next: page.next ?? (q.after === 'latest' ? after : null) };
  };
}

/** The query's filters; null when it names a campaign the caller may not see (no events, as for one that does not exist). */
async function filterOf(deps: ApiDeps, q: ListEventsQuery, visible: CampaignVisibility): Promise<EventFilter | null> {
  const campaignDbId = q.campaignId ? await resolveVisibleCampaignDbId(deps.pg, q.campaignId, visible) : undefined;
  if (campaignDbId === null) return null;
  return {
    ...(q.type ? { types: q.type.split(',') } : {}),
    ...(q.chainId !== undefined ? { chainId: q.chainId } : {}),
    ...(campaignDbId ? { campaignDbId } : {}),
    ...(q.opportunityId ? { opportunityId: q.opportunityId } : {}),
    ...(q.address ? { address: q.address } : {}),
    ...(q.creator ? { creator: q.creator } : {}),
  };
}

function wantsStream(ctx: Context, q: ListEventsQuery): boolean {
  return q.stream === '1' || q.stream === 'true' || /text\/event-stream/i.test(ctx.get('accept'));
}

/** `after` as an id: `latest` is the newest id handed out now. */
async function afterOf(deps: ApiDeps, after: ListEventsQuery['after']): Promise<string> {
  return after === 'latest' ? latestEventId(deps.pg) : String(after);
}

/** Resume point of a stream: Last-Event-ID (what EventSource sends on reconnect) wins over `after`. */
async function resumeFrom(deps: ApiDeps, ctx: Context, q: ListEventsQuery): Promise<string> {
  const header = ctx.get('last-event-id').trim();
  if (!header) return afterOf(deps, q.after);
  if (!/^\d{1,18}$/.test(header))
    throw new AppError(PROBLEMS.VALIDATION_FAILED, 'Last-Event-ID must be an event id (a decimal integer)', {
      errors: [{ field: 'Last-Event-ID', message: 'must be a decimal event id' }],
    });
  return header;
}

async function serveStream(
  deps: ApiDeps,
  ctx: Context,
  {
    q,
    filter,
    state,
    feed,
    slots,
    caller,
  }: {
    q: ListEventsQuery;
    filter: EventFilter | null;
    state: AuthState;
    feed: EventFeed;
    slots: StreamSlots;
    caller: StreamCaller;
  },
): Promise<void> {
  const after = await resumeFrom(deps, ctx, q);
  // Gone while the resume point was read: no slot is taken for nobody.
  if (isGone(ctx.res)) {
    ctx.respond = false;
    return;
  }
  slots.acquire(caller, ctx);
  try {
    const oldest = await oldestEventId(deps.pg);
    // Koa leaves the response to us: no compression, ETag or body buffering may sit in front of a stream.
    ctx.respond = false;
    ctx.status = 200;
    const res = ctx.res;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.socket?.setNoDelay(true);
    res.write('retry: 2000\n\n');
    if (isExpired(after, oldest)) {
      res.end(
        toSseError(
          'EVENTS_EXPIRED',
          `events after ${after} are no longer retained; start again without Last-Event-ID`,
          {
            oldestId: oldest,
          },
        ),
      );
      return;
    }
    if (!filter) {
      // A campaign the caller may not see: a stream that never carries anything, as for one that does not exist.
      filter = { campaignDbId: 'hidden:none' };
    }
    await streamEvents({
      db: deps.pg,
      res,
      feed,
      logger: deps.logger,
      after,
      filter,
      reader: eventReaderOf(state),
      credentials: streamCredentials(deps.pg, state),
      maxBufferBytes: deps.config.eventStream.maxBufferBytes,
      stallMs: deps.config.eventStream.stallMs,
      heartbeatMs: deps.config.eventStream.heartbeatMs,
    });
  } finally {
    slots.release(caller);
  }
}
