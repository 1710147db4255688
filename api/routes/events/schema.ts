import { EVENT_TYPES } from '../../../domain/tables/events.js';
import { fields, type InputOf } from '../../validate.js';

/** Events per JSON page at most, and by default. */
export const MAX_EVENTS_PAGE = 1000;
export const DEFAULT_EVENTS_PAGE = 100;

/** GET /v4/events query (JSON paging and the stream share it). */
export const listEventsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    // An event id, or `latest`: only what commits from now on (a page showing figures it just read).
    // A type union rather than anyOf (ajv's coercion would turn neither into the other); a query
    // string's id stays a string of digits (at most 2^53 - 1, as an integer id would be).
    after: {
      type: ['integer', 'string'],
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      pattern: '^(latest|[0-9]{1,15}|[0-8][0-9]{15}|900[0-6][0-9]{12})$',
      default: 0,
    },
    limit: { type: 'integer', minimum: 1, maximum: MAX_EVENTS_PAGE, default: DEFAULT_EVENTS_PAGE },
    type: fields.commaList(EVENT_TYPES),
    chainId: fields.chainId,
    campaignId: { type: 'string', minLength: 1, maxLength: 200, 'x-accepts': fields.campaignIdAccepts },
    opportunityId: { type: 'string', minLength: 1, maxLength: 200 },
    address: fields.address,
    /** Events about campaigns this address created. */
    creator: fields.address,
    /** Serve Server-Sent Events without an Accept header (`1` or `true`). */
    stream: { type: 'string', enum: ['1', 'true', '0', 'false'] },
  },
} as const;

export type ListEventsQuery = InputOf<typeof listEventsQuery>;
