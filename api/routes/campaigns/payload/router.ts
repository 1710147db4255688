import type Router from '@koa/router';
import type { ApiDeps } from '../../../deps.js';
import { validate } from '../../../validate.js';
import { generatePayloadHandler } from './handlers.js';
import { parseCampaignsParams } from './parseCampaignsParams.js';
import { generatePayloadBody } from './schema.js';
import { describe } from '../../../openapi/describe.js';
import { generatePayloadSchema } from '../responses.js';

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
