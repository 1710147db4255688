import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { decodeArgsHandler } from './decodeHandlers.js';
import { configHashParams, configHashQuery, decodeArgsBody } from './schema.js';
import { getConfigHandler, storeConfigHandler } from './storeHandlers.js';

/**
 * /v4/config routes (spec: Campaign configuration): store a configuration by hash and read it
 * back (optionally associating it with a campaign); decode createCampaign arguments. Tables campaign_configs, campaign_config_associations.
 */
export function configRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.post(['/config/store', '/config/store/'], storeConfigHandler(deps));
  router.get(['/config/hash/:hash', '/config/hash/:hash/'], validate({ params: configHashParams, query: configHashQuery }), getConfigHandler(deps));
  router.post(['/config/decode/args/createCampaign', '/config/decode/args/createCampaign/'], validate({ body: decodeArgsBody }), decodeArgsHandler(deps));
  return router;
}
