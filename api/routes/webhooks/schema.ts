import { EVENT_TYPES } from '../../../domain/tables/events.js';
import { WEBHOOK_SECRET_PATTERN } from '../../../domain/webhookSignature.js';
import { fields, type InputOf } from '../../validate.js';

/** Deliveries per page at most, and by default. */
export const MAX_DELIVERIES_PAGE = 100;
export const DEFAULT_DELIVERIES_PAGE = 20;

/** What a webhook receives: the filters of GET /v4/events (api/routes/events/schema.ts), all optional. */
const FILTERS = {
  type: fields.commaList(EVENT_TYPES),
  chainId: fields.chainId,
  campaignId: { type: 'string', minLength: 1, maxLength: 200, 'x-accepts': fields.campaignIdAccepts },
  opportunityId: { type: 'string', minLength: 1, maxLength: 200 },
  address: fields.address,
  /** Events about the campaigns this address created. */
  creator: fields.address,
} as const;

const URL_FIELD = {
  type: 'string',
  minLength: 10,
  maxLength: 2048,
  pattern: '^https?://[^\\s]+$',
  'x-accepts': 'an http(s) URL whose host is not a private, loopback or link-local address',
} as const;
const SECRET_FIELD = {
  type: 'string',
  pattern: WEBHOOK_SECRET_PATTERN,
  'x-accepts': '`whsec_` and 24 to 64 bytes of base64 key (Standard Webhooks); one is generated when absent',
} as const;

/** POST /v4/webhooks body. */
export const createWebhookBody = {
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: { url: URL_FIELD, ...FILTERS, secret: SECRET_FIELD, enabled: { type: 'boolean', default: true } },
} as const;

/** A webhook's filter, by its field name. */
export type WebhookFilter = keyof typeof FILTERS;
/** The filters a PATCH may clear (`clear`). */
export const CLEARABLE_FILTERS = Object.keys(FILTERS) as WebhookFilter[];

/**
 * PATCH /v4/webhooks/{id} body: the fields to change (`enabled: true` re-enables a disabled webhook);
 * `clear` names filters to remove (comma-separated: the webhook then receives every value of them),
 * in any encoding, where JSON's null could not be sent.
 */
export const updateWebhookBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    url: URL_FIELD,
    ...FILTERS,
    clear: {
      ...fields.commaList(CLEARABLE_FILTERS),
      'x-accepts': `filters to remove, comma-separated: ${CLEARABLE_FILTERS.join(', ')} (not also given a value)`,
    },
    secret: SECRET_FIELD,
    enabled: { type: 'boolean' },
  },
} as const;

/** Path `id` (uuid). */
export const webhookIdParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'string', format: 'uuid' } },
} as const;

/** GET /v4/webhooks/{id}/deliveries: newest first, `before` a delivery id (the previous page's `next`). */
export const listDeliveriesQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    before: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    limit: { type: 'integer', minimum: 1, maximum: MAX_DELIVERIES_PAGE, default: DEFAULT_DELIVERIES_PAGE },
  },
} as const;

export const noQuery = { type: 'object', additionalProperties: false, properties: {} } as const;

export type CreateWebhookBody = InputOf<typeof createWebhookBody>;
export type UpdateWebhookBody = InputOf<typeof updateWebhookBody>;
