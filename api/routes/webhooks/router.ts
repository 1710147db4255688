import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import type { AuthState } from '../../identity/types.js';
import { requireApiKey } from '../../middleware/auth.js';
import { describe } from '../../openapi/describe.js';
import { arr, bool, int, nullable, obj, str } from '../../openapi/schemaHelpers.js';
import { validate } from '../../validate.js';
import {
  createWebhookHandler,
  deleteWebhookHandler,
  getWebhookHandler,
  listDeliveriesHandler,
  listWebhooksHandler,
  updateWebhookHandler,
} from './handlers.js';
import { createWebhookBody, listDeliveriesQuery, noQuery, updateWebhookBody, webhookIdParams } from './schema.js';

const webhookFields = {
  id: { type: 'string', format: 'uuid' },
  url: str,
  type: nullable(str),
  chainId: nullable(int),
  campaignId: nullable(str),
  opportunityId: nullable(str),
  address: nullable(str),
  creator: nullable(str),
  enabled: bool,
  disabledReason: nullable(str),
  disabledAt: nullable(str),
  lastEventId: str,
  consecutiveFailures: int,
  nextAttemptAt: nullable(str),
  createdAt: str,
  updatedAt: str,
};
const webhookSchema = obj(webhookFields);
const deliverySchema = obj({
  id: str,
  eventId: str,
  attempt: int,
  delivered: bool,
  statusCode: nullable(int),
  error: nullable(str),
  durationMs: int,
  nextAttemptAt: nullable(str),
  createdAt: str,
});

const DELIVERY =
  'Each event matching the filters (those of GET /v4/events; events about a private campaign only when the owner may see it) ' +
  'is POSTed to `url` as `{ type, timestamp, data: <the event as GET /v4/events serves it> }`, in id order, signed as ' +
  'Standard Webhooks: headers `webhook-id` (the event id: deduplicate on it, a delivery may repeat), `webhook-timestamp` ' +
  '(Unix seconds) and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}` ' +
  'keyed with the base64 part of the secret). A 2xx answer is a delivery; anything else is retried with exponential ' +
  'backoff and jitter (for more than 24 h by default), and the webhook is disabled after WEBHOOKS_DISABLE_AFTER_FAILURES ' +
  'consecutive failures with `disabledReason`. Outbound requests refuse private, loopback and link-local addresses.';

/**
 * Webhooks (README "Webhooks"; issue #32): an API key owner's URLs receiving the event log, signed.
 * The jobs processes deliver (jobs/deliverWebhooks.ts); these routes only manage them and show the
 * attempts. Tables: webhooks, webhook_cursors, webhook_deliveries.
 */
export function webhooksRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  router.post(
    ['/webhooks', '/webhooks/'],
    describe({
      summary: 'Create a webhook (the secret is answered once)',
      description: `Creates a webhook owned by the API key's owner, receiving events appended from now on. ${DELIVERY} \`secret\` is generated when absent and is in this response only. 400 naming \`url\` when its host is (or resolves to) a refused address; 409 past WEBHOOKS_MAX_PER_OWNER webhooks.`,
      bodyExamples: {
        claims: {
          summary: 'Claims and new campaigns on one chain, with a generated secret',
          value: { url: 'https://example.com/rewards-hook', type: 'campaign.created,claim.indexed', chainId: 1 },
        },
        ownSecret: {
          summary: 'Every event about one address, with a secret of your own',
          value: {
            url: 'https://example.com/rewards-hook',
            address: '0x1111111111111111111111111111111111111111',
            secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
          },
        },
      },
      response: obj({ ...webhookFields, secret: str }),
      errors: [409],
    }),
    requireApiKey,
    validate({ body: createWebhookBody }),
    createWebhookHandler(deps),
  );
  router.get(
    ['/webhooks', '/webhooks/'],
    describe({
      summary: "The API key owner's webhooks",
      description: "The webhooks of the API key's owner, with where their delivery stands; never their secrets.",
      response: arr(webhookSchema),
    }),
    requireApiKey,
    validate({ query: noQuery }),
    listWebhooksHandler(deps),
  );
  router.get(
    ['/webhooks/:id', '/webhooks/:id/'],
    describe({
      summary: 'One webhook',
      description: `One of the owner's webhooks (another owner's is a 404). ${DELIVERY}`,
      response: webhookSchema,
      errors: [404],
    }),
    requireApiKey,
    validate({ params: webhookIdParams, query: noQuery }),
    getWebhookHandler(deps),
  );
  router.patch(
    ['/webhooks/:id', '/webhooks/:id/'],
    describe({
      summary: 'Change a webhook, or re-enable it',
      description:
        'Changes the given fields. `enabled: true` re-enables a disabled webhook: delivery resumes with the event after the last one delivered (while still retained) and its failures are forgotten; `enabled: false` pauses it.',
      bodyExamples: {
        enable: { summary: 'Re-enable after it was disabled', value: { enabled: true } },
        filters: { summary: 'Receive root events only', value: { type: 'root.seen,root.disputed,root.revoked' } },
      },
      response: webhookSchema,
      errors: [404],
    }),
    requireApiKey,
    validate({ params: webhookIdParams, body: updateWebhookBody }),
    updateWebhookHandler(deps),
  );
  router.delete(
    ['/webhooks/:id', '/webhooks/:id/'],
    describe({
      summary: 'Delete a webhook',
      description: 'Deletes one of the owner’s webhooks with its delivery records.',
      response: obj({ success: bool }),
      errors: [404],
    }),
    requireApiKey,
    validate({ params: webhookIdParams }),
    deleteWebhookHandler(deps),
  );
  router.get(
    ['/webhooks/:id/deliveries', '/webhooks/:id/deliveries/'],
    describe({
      summary: 'Delivery attempts of a webhook, newest first',
      description:
        "Every attempt (kept WEBHOOK_DELIVERIES_RETENTION_DAYS): the event, the attempt number, the HTTP status or the error, the duration and, after a failure, when the next attempt is due. Page with `before` = the previous page's `next` (null on the last page).",
      cacheControl: 'private, no-store',
      response: obj({ deliveries: arr(deliverySchema), next: nullable(str) }),
      errors: [404],
    }),
    requireApiKey,
    validate({ params: webhookIdParams, query: listDeliveriesQuery }),
    listDeliveriesHandler(deps),
  );
  return router;
}
