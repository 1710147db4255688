import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { decodeArgsHandler } from './decodeHandlers.js';
import { configHashParams, configHashQuery, decodeArgsBody, storeConfigBody } from './schema.js';
import { getConfigHandler, storeConfigHandler } from './storeHandlers.js';
import { configStoreRateLimit } from './storeRateLimit.js';
import { clientKeyOf } from '../../middleware/clientAddress.js';
import { describe } from '../../openapi/describe.js';
import { arr, hex, int, obj } from '../../openapi/schemaHelpers.js';

/**
 * /v4/config routes (docs/api-behaviour.md#stored-configurations): store a configuration by hash and read it
 * back (optionally associating it with a campaign); decode createCampaign arguments. Tables campaign_configs, campaign_config_associations.
 */
export function configRouter(deps: ApiDeps): Router {
  const router = new Router();
  const storeRateLimit = configStoreRateLimit({
    pool: deps.pg,
    logger: deps.logger,
    perMinute: deps.config.configStore.perMinute,
    clientKey: clientKeyOf(deps.config.trustedProxies),
  });
  router.post(
    ['/config/store', '/config/store/'],
    describe({
      summary: 'Store a configuration keyed by its hash',
      description:
        'Stores a campaign configuration (any JSON object) under the hash of its content and returns the hash; storing the same configuration again returns the same hash.',
      response: obj({ hash: hex }),
      errors: [413, 429],
    }),
    storeRateLimit,
    validate({ body: storeConfigBody }),
    storeConfigHandler(deps),
  );
  router.get(
    ['/config/hash/:hash', '/config/hash/:hash/'],
    describe({
      summary: 'A stored configuration by hash (optionally associated with a campaign)',
      description:
        'The configuration stored under `hash`. With both `campaignId` and `distributionChainId`, the configuration is also attached to that campaign when the grounds allow it (the campaign commits to the hash on-chain, the caller is its creator, or the back office), and the `X-Config-Association` header always says whether it was: `attached; grounds=onchain|creator|backOffice` or `not-attached; reason="…"` (on the 404 of an unknown hash too). Browsers on other origins can read it (Access-Control-Expose-Headers).',
      response: { type: 'object' },
      headers: {
        'X-Config-Association':
          'With campaignId and distributionChainId only: `attached; grounds=onchain|creator|backOffice` or `not-attached; reason="…"`.',
      },
      errors: [404],
    }),
    validate({ params: configHashParams, query: configHashQuery }),
    getConfigHandler(deps),
  );
  router.post(
    ['/config/decode/args/createCampaign', '/config/decode/args/createCampaign/'],
    describe({
      summary: 'Decode the arguments of a createCampaign(s) call',
      description:
        'Decodes the `args` of a createCampaign or createCampaigns call (as sent on `distributionChainId`) into campaign parameters with readable campaign data, and the id each campaign gets.',
      response: obj({ distributionChainId: int, campaigns: arr({ type: 'object' }) }),
    }),
    validate({ body: decodeArgsBody }),
    decodeArgsHandler(deps),
  );
  return router;
}
