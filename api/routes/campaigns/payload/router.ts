import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { ApiDeps } from '../../../deps.js';
import { ValidationError } from '../../../errors.js';
import { validate } from '../../../validate.js';
import { generatePayloadHandler } from './handlers.js';
import { generatePayloadBody } from './schema.js';
import { describe } from '../../../openapi/describe.js';
import { generatePayloadSchema } from '../responses.js';

/** Form and multipart bodies carry campaignsParams as JSON text: parse it before validation. */
async function parseCampaignsParams(ctx: Context, next: Next): Promise<void> {
  const body = (ctx.request as { body?: Record<string, unknown> }).body;
  if (body && typeof body['campaignsParams'] === 'string') {
    try {
      body['campaignsParams'] = JSON.parse(body['campaignsParams']);
    } catch {
      throw new ValidationError([
        { field: 'campaignsParams', message: 'must be an object (JSON text in form bodies)' },
      ]);
    }
  }
  await next();
}

/** Mounts POST /campaigns/generate-payload on the campaigns router (before the `/:id` routes). */
export function mountGeneratePayload(router: Router, deps: ApiDeps): void {
  router.post(
    ['/campaigns/generate-payload', '/campaigns/generate-payload/'],
    describe({
      summary: 'Build the createCampaigns transaction (simulated on chain)',
      response: generatePayloadSchema,
    }),
    parseCampaignsParams,
    validate({ body: generatePayloadBody }),
    generatePayloadHandler(deps),
  );
}
