import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { listRootsHandler, liveRootsHandler } from './handlers.js';
import { listRootsQuery, noQuery } from '../../reads/roots/schema.js';
import { describe } from '../../openapi/describe.js';
import { arr, bool, decimal, hex, int, nullable, obj, stringMap } from '../../openapi/schemaHelpers.js';

/** /v4/roots: reward roots of a chain over a time window, and the live root of every chain. Tables roots, chains. */
export function rootsRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(
    ['/roots', '/roots/'],
    describe({
      summary: 'Reward roots of a chain over a time window',
      description: 'The reward roots of `chainId` recorded between `fromTimestamp` and `toTimestamp` (Unix seconds).',
      response: arr(obj({ root: hex, chainId: int, epoch: int, timestamp: decimal, isLatest: bool })),
    }),
    validate({ query: listRootsQuery }),
    listRootsHandler(deps),
  );
  router.get(
    ['/roots/live', '/roots/live/'],
    describe({
      summary: 'The live reward root of every chain',
      description:
        "Per chain id: `live`, the root the Distributor's `getMerkleRoot()` returns (the latest root once its dispute period is over and no dispute is open, else the one before it), decided on the indexed roots and disputes at the chain's latest indexed block time (`chainTime`); `tree` and `lastTree`, the Distributor's latest and previous roots; `endOfDisputePeriod` as the Distributor stores it (0 after a revoke); `pending`, the latest root while it is not live yet; `disputeOpen`; `disputer`, while a dispute is open, who opened it (the Distributor's `disputer()` read at the Disputed log's block; absent for a dispute indexed before this field was kept). A root that does not exist is the zero hash.",
      response: stringMap(
        obj(
          {
            live: hex,
            tree: hex,
            lastTree: hex,
            endOfDisputePeriod: int,
            pending: nullable(hex),
            disputeOpen: bool,
            disputer: hex,
            chainTime: nullable(int),
          },
          ['disputer'],
        ),
      ),
    }),
    validate({ query: noQuery }),
    liveRootsHandler(deps),
  );
  return router;
}
