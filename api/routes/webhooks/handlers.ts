import { generateWebhookSecret } from '../../../domain/webhookSignature.js';
import { OutboundRefusedError, resolveAllowed } from '../../../internal/outboundGuard.js';
import type { ApiDeps } from '../../deps.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { AuthState } from '../../identity/types.js';
import type { Handler } from '../../validate.js';
import { campaignVisibilityOf, resolveVisibleCampaignDbId } from '../../visibility/campaignVisibility.js';
import * as repo from './repo.js';
import type {
  CreateWebhookBody,
  createWebhookBody,
  listDeliveriesQuery,
  noQuery,
  UpdateWebhookBody,
  updateWebhookBody,
  webhookIdParams,
  WebhookFilter,
} from './schema.js';
import { serializeDelivery, serializeWebhook } from './serialize.js';

/** The API key's owner (every /webhooks route is behind requireApiKey). */
const owner = (state: AuthState) => state.apiKey!.ownerAddress;

/**
 * The body's settings in stored form: the URL's host checked against the outbound guard (resolved
 * now; the deliverer checks again at each connection), the campaign resolved through the owner's
 * visibility (the one rule: a campaign it may not see is refused as one that does not exist).
 */
async function fieldsOf(
  deps: ApiDeps,
  state: AuthState,
  body: CreateWebhookBody | UpdateWebhookBody,
): Promise<repo.WebhookFields> {
  if (body.url !== undefined) {
    const url = URL.canParse(body.url) ? new URL(body.url) : null;
    if (!url) throw new ValidationError([{ field: 'url', message: 'is not a valid URL' }]);
    if (url.username || url.password)
      throw new ValidationError([{ field: 'url', message: 'must not carry credentials (user:password@)' }]);
    await resolveAllowed(url.hostname, deps.config.webhooks.allow).catch((error: unknown) => {
      if (error instanceof OutboundRefusedError) throw new ValidationError([{ field: 'url', message: error.message }]);
      throw error;
    });
  }
  const clear = 'clear' in body && body.clear !== undefined ? [...new Set(body.clear.split(','))] : [];
  const both = clear.filter((f) => body[f as keyof typeof body] !== undefined);
  if (both.length)
    throw new ValidationError(both.map((f) => ({ field: f, message: 'is both given a value and named in `clear`' })));
  let campaignDbId: string | undefined;
  if (body.campaignId !== undefined) {
    const visible = await campaignVisibilityOf(deps, state, true);
    campaignDbId = (await resolveVisibleCampaignDbId(deps.pg, body.campaignId, visible)) ?? undefined;
    if (!campaignDbId) throw new ValidationError([{ field: 'campaignId', message: `no campaign ${body.campaignId}` }]);
  }
  return {
    ...(body.url !== undefined ? { url: body.url } : {}),
    ...(body.secret !== undefined ? { secret: body.secret } : {}),
    ...(body.type !== undefined ? { types: body.type.split(',') } : {}),
    ...(body.chainId !== undefined ? { chainId: body.chainId } : {}),
    ...(campaignDbId ? { campaignDbId } : {}),
    ...(body.opportunityId !== undefined ? { opportunityId: body.opportunityId } : {}),
    ...(body.address !== undefined ? { address: body.address } : {}),
    ...(body.creator !== undefined ? { creator: body.creator } : {}),
    ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
    ...(clear.length ? { clear: clear as WebhookFilter[] } : {}),
  };
}

/** POST /v4/webhooks: a new webhook of the key's owner; its secret (given or generated) is answered this once. */
export function createWebhookHandler(deps: ApiDeps): Handler<{ body: typeof createWebhookBody }> {
  return async (ctx) => {
    const f = await fieldsOf(deps, ctx.state, ctx.state.body);
    const secret = f.secret ?? generateWebhookSecret();
    const row = await repo.createWebhook(
      deps.pg,
      owner(ctx.state),
      { ...f, url: f.url!, secret },
      deps.config.webhooks.maxPerOwner,
    );
    // 200, as every successful response (spec: "Successful responses are HTTP 200"; README), not 201.
    ctx.body = { ...serializeWebhook(row), secret };
  };
}

/** GET /v4/webhooks: the key owner's webhooks. */
export function listWebhooksHandler(deps: ApiDeps): Handler<{ query: typeof noQuery }> {
  return async (ctx) => {
    ctx.body = (await repo.listWebhooks(deps.pg, owner(ctx.state))).map(serializeWebhook);
  };
}

async function ownWebhook(deps: ApiDeps, state: AuthState, id: string): Promise<repo.WebhookRow> {
  const row = await repo.getWebhook(deps.pg, owner(state), id);
  if (!row) throw new NotFoundError(`No webhook ${id}`);
  return row;
}

/** GET /v4/webhooks/{id}: one of the owner's webhooks (another owner's is a 404). */
export function getWebhookHandler(deps: ApiDeps): Handler<{ params: typeof webhookIdParams; query: typeof noQuery }> {
  return async (ctx) => {
    ctx.body = serializeWebhook(await ownWebhook(deps, ctx.state, ctx.state.params.id));
  };
}

/** PATCH /v4/webhooks/{id}: changes the given fields; `enabled: true` resumes after the last delivered event. */
export function updateWebhookHandler(
  deps: ApiDeps,
): Handler<{ params: typeof webhookIdParams; body: typeof updateWebhookBody }> {
  return async (ctx) => {
    const { id } = ctx.state.params;
    await ownWebhook(deps, ctx.state, id);
    const row = await repo.updateWebhook(
      deps.pg,
      owner(ctx.state),
      id,
      await fieldsOf(deps, ctx.state, ctx.state.body),
    );
    if (!row) throw new NotFoundError(`No webhook ${id}`);
    ctx.body = serializeWebhook(row);
  };
}

/** DELETE /v4/webhooks/{id}: deletes it with its delivery records. */
export function deleteWebhookHandler(deps: ApiDeps): Handler<{ params: typeof webhookIdParams }> {
  return async (ctx) => {
    const { id } = ctx.state.params;
    if (!(await repo.deleteWebhook(deps.pg, owner(ctx.state), id))) throw new NotFoundError(`No webhook ${id}`);
    ctx.body = { success: true };
  };
}

/** GET /v4/webhooks/{id}/deliveries: the attempts, newest first; `next` is the `before` of the next page. */
export function listDeliveriesHandler(
  deps: ApiDeps,
): Handler<{ params: typeof webhookIdParams; query: typeof listDeliveriesQuery }> {
  return async (ctx) => {
    const { params, query } = ctx.state;
    await ownWebhook(deps, ctx.state, params.id);
    const rows = await repo.listDeliveries(deps.pg, params.id, query);
    ctx.set('cache-control', 'private, no-store');
    ctx.body = {
      deliveries: rows.map(serializeDelivery),
      next: rows.length === query.limit ? (rows.at(-1)?.id ?? null) : null,
    };
  };
}
