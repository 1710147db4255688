import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { blockBoundsHandler, blockTimestampHandler, closestBlockHandler } from './handlers.js';
import { blockQuery, boundsQuery, timestampQuery } from './schema.js';
import { describe } from '../../openapi/describe.js';
import { bool, int, nullable, obj } from '../../openapi/schemaHelpers.js';

const blockAt = nullable(obj({ blockNumber: int, timestamp: int }));

/**
 * GET /v4/block-timestamp/block | /timestamp | /bounds — block ↔ timestamp resolution per chain,
 * from indexed headers (table blocks) with RPC bisection beyond them.
 */
export function blockTimestampRouter(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/block-timestamp' });
  router.get(
    '/block',
    describe({
      summary: 'The block closest to a timestamp',
      description:
        "The block of `chainId` whose timestamp is closest to `timestamp` (Unix seconds), from indexed blocks or the chain's RPC.",
      response: obj({ blockNumber: int }),
    }),
    validate({ query: blockQuery }),
    closestBlockHandler(deps),
  );
  router.get(
    '/timestamp',
    describe({
      summary: 'The timestamp of a block (400 naming blockNumber for a block past the chain head)',
      description:
        'The Unix timestamp of block `blockNumber` on `chainId`. A block past the chain head is a 400 naming `blockNumber`.',
      response: obj({ timestamp: int }),
    }),
    validate({ query: timestampQuery }),
    blockTimestampHandler(deps),
  );
  router.get(
    '/bounds',
    describe({
      summary: 'The blocks just before and after a timestamp',
      description:
        "The closest block at or before `timestamp` (`lower`) and at or after it (`upper`); `exactMatch` is true when both are the same block. Either bound is null past the chain's ends.",
      response: obj({ lower: blockAt, upper: blockAt, exactMatch: bool }),
    }),
    validate({ query: boundsQuery }),
    blockBoundsHandler(deps),
  );
  return router;
}
