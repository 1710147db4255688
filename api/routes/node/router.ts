import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { nodeHandler } from './handlers.js';
import { nodeQuery } from './schema.js';
import { describe } from '../../openapi/describe.js';
import { arr, int, obj, str } from '../../openapi/schemaHelpers.js';

const nodeSchema = obj({
  id: str,
  chainId: int,
  protocol: str,
  recipient: str,
  nodesSourceId: str,
  creationBlockNumber: int,
  metadata: { type: 'object' },
  nodeSource: obj({ id: str, protocol: str, lastFetchedBlockNumber: int, chainId: int, source: str, topics: arr(str) }),
});

/**
 * GET /v4/node: whether an address or id is labelled by the engine: our DistributionCreator and
 * Distributor per configured chain, and opportunity identifiers (pools, vaults) or ids from
 * PostgreSQL. An empty array when unknown. Tables opportunities, campaigns_current, cursors.
 */
export function nodeRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(
    ['/node', '/node/'],
    describe({
      summary: 'Whether an address or id is labelled (our contracts, opportunity identifiers)',
      description:
        'Whether `addressOrId` is a known address on `chainId` (one of our contracts, an opportunity identifier) and as what.',
      response: arr(nodeSchema),
    }),
    validate({ query: nodeQuery }),
    nodeHandler(deps),
  );
  return router;
}
