import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { ValidationError } from '../../errors.js';
import { validate } from '../../validate.js';
import { BlockBeyondHeadError, findBlockBounds, findBlockTimestamp, findClosestBlock } from './blockLookup.js';
import { blockQuery, boundsQuery, timestampQuery, type BlockQuery, type TimestampQuery } from './schema.js';
import { describe } from '../../openapi/describe.js';
import { bool, int, nullable, obj } from '../../openapi/schemaHelpers.js';

const blockAt = nullable(obj({ blockNumber: int, timestamp: int }));

/**
 * GET /v4/block-timestamp/block | /timestamp | /bounds — block ↔ timestamp resolution per chain,
 * from indexed headers (table blocks) with RPC bisection beyond them.
 */
export function blockTimestampRouter(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/block-timestamp' });
  const source = (chainId: number) => {
    const chain = deps.rpc.get(chainId);
    if (!chain)
      throw new ValidationError([
        { field: 'chainId', message: `is not a supported chain (supported: ${[...deps.rpc.keys()].join(', ')})` },
      ]);
    return { pg: deps.pg, client: chain.client, chainId };
  };
  router.get(
    '/block',
    describe({ summary: 'The block closest to a timestamp', response: obj({ blockNumber: int }) }),
    validate({ query: blockQuery }),
    async (ctx) => {
      const q = ctx.state.query as BlockQuery;
      ctx.body = { blockNumber: await findClosestBlock(source(q.chainId), q.timestamp) };
    },
  );
  router.get(
    '/timestamp',
    describe({
      summary: 'The timestamp of a block (400 naming blockNumber for a block past the chain head)',
      response: obj({ timestamp: int }),
    }),
    validate({ query: timestampQuery }),
    async (ctx) => {
      const q = ctx.state.query as TimestampQuery;
      const timestamp = await findBlockTimestamp(source(q.chainId), q.blockNumber).catch((e: unknown) => {
        if (e instanceof BlockBeyondHeadError)
          throw new ValidationError([
            {
              field: 'blockNumber',
              message: `is beyond the chain head (block ${e.head}): that block does not exist yet`,
            },
          ]);
        throw e;
      });
      ctx.body = { timestamp };
    },
  );
  router.get(
    '/bounds',
    describe({
      summary: 'The blocks just before and after a timestamp',
      response: obj({ lower: blockAt, upper: blockAt, exactMatch: bool }),
    }),
    validate({ query: boundsQuery }),
    async (ctx) => {
      const q = ctx.state.query as BlockQuery;
      ctx.body = await findBlockBounds(source(q.chainId), q.timestamp);
    },
  );
  return router;
}
