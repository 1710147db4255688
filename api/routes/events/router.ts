import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { acceptsHeaders } from '../../middleware/corsRoutes.js';
import { validate } from '../../validate.js';
import { describe } from '../../openapi/describe.js';
import { arr, bool, int, nullable, obj, str, stringMap } from '../../openapi/schemaHelpers.js';
import { createEventFeed } from './eventFeed.js';
import { listEventsHandler } from './handlers.js';
import { listEventsQuery } from './schema.js';
import { streamSlotsOf } from '../../reads/events/streamSlots.js';

const EVENT = obj({
  id: str,
  type: str,
  chainId: nullable(int),
  campaignId: nullable(str),
  opportunityId: nullable(str),
  address: nullable(str),
  root: nullable(str),
  blockNumber: nullable(int),
  retracted: bool,
  payload: stringMap(),
  createdAt: str,
});

const EXAMPLE_EVENT = {
  id: '42',
  type: 'campaign.created',
  chainId: 1,
  campaignId: '1234567890123456789',
  opportunityId: '9876543210987654321',
  address: '0x1111111111111111111111111111111111111111',
  root: null,
  blockNumber: 21000000,
  retracted: false,
  payload: {
    campaignId: `0x${'ab'.repeat(32)}`,
    campaignType: 1,
    rewardToken: '0x2222222222222222222222222222222222222222',
    amount: '1000000000000000000000',
  },
  createdAt: '2026-11-27T04:00:00.000Z',
};

/** /v4/events: the change log (campaigns, roots, claims, retractions) as JSON pages or Server-Sent Events. */
export function eventsRouter(deps: ApiDeps): Router {
  const router = new Router();
  // One reader of the log (LISTEN plus one query per append) and one count of open streams per caller for the whole process.
  const feed = createEventFeed({ pg: deps.pg, logger: deps.logger });
  const slots = streamSlotsOf(deps);
  router.get(
    ['/events', '/events/'],
    describe({
      summary: 'Changes: the event log, paged or streamed',
      description:
        'What changed, in commit order: `campaign.created`, `campaign.changed` (override, reallocation, made public or private), ' +
        '`campaign.ended`, `opportunity.changed` (status, or APR, TVL or daily rewards beyond EVENTS_FIGURE_THRESHOLD_BPS), ' +
        '`root.seen`, `root.disputed`, `root.dispute_resolved`, `root.revoked`, `root.live` (the root claims are served ' +
        'against changed) with a `rewards.changed` per address and token whose amount changed, `claim.indexed`, and `retracted` ' +
        '(a reorg removed the blocks of the events named in `payload.ids`). Each event has an increasing `id`, its subjects and a ' +
        'small payload. JSON: events with id greater than `after`, oldest first, at most `limit`; `next` is the `after` of the ' +
        'next page (null when this one read everything there was). A page examines at most 5,000 events of its filter: past ' +
        'events the caller may not see it stops short, even empty, with `next` after the last one examined, so keep reading ' +
        'while `next` is set; `after=latest` starts after the newest event (a JSON page is then empty with ' +
        '`next` set to that id); 410 when `after` is older than the oldest retained event (kept EVENTS_RETENTION_DAYS). ' +
        'With `Accept: text/event-stream` (or `stream=1`) the same events as Server-Sent Events, pushed as they commit: ' +
        'resume with `Last-Event-ID` (or `after`); `event: error` then end of stream when the id is no longer retained ' +
        '(EVENTS_EXPIRED), the client does not read fast enough (SLOW_CLIENT) or the session or API key it was opened with ' +
        'is revoked or expires (CREDENTIALS_ENDED, checked every 2 s); `: heartbeat` comments every 15 s. ' +
        'Each filter reads its own index; a stream moves past every event it examined. ' +
        'Events about a private campaign reach only callers who may see it, decided when each event is sent (the privacy ' +
        'and the grants of that moment); a campaign made private is announced to those only. Concurrent streams per caller: 2 anonymous, ' +
        'more with an API key by tier (429 beyond); per client address whatever its keys or sessions, an IPv6 client by its ' +
        '/64 (EVENTS_STREAMS_PER_ADDRESS, 429 with `scope: "address"`); per API process (EVENTS_STREAMS_MAX, 503 with Retry-After).',
      example: { events: [EXAMPLE_EVENT], next: '42' },
      cacheControl: 'private, no-store',
      response: obj({ events: arr(EVENT), next: nullable(str) }),
      also: {
        // Described one event at a time (what an SSE reader, Schemathesis' included, checks each event against).
        'text/event-stream': {
          type: 'object',
          description:
            'Server-Sent Events, each `id: <event id>`, `event: <type>`, `data: <the event as JSON>`; an `error` event ' +
            '(`data`: `{ code, reason, lastEventId }`) ends a stream the server closes (credentials ended, a client too slow).',
          properties: {
            id: { type: 'string' },
            event: { type: 'string' },
            data: { type: 'string' },
            retry: { type: 'integer' },
          },
        },
      },
      errors: [410, 429, 503],
    }),
    validate({ query: listEventsQuery }),
    // Last-Event-ID is not CORS-safelisted: a page's fetch-based client (clients/typescript subscribe()) needs it allowed.
    acceptsHeaders(listEventsHandler(deps, { feed, slots }), ['last-event-id']),
  );
  return router;
}
