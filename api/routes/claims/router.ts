import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import {
  claimsHistoryHandler,
  claimsStatusHandler,
  countClaimsHandler,
  countTotalHandler,
  latestClaimsHandler,
  listClaimsHandler,
} from './handlers.js';
import { chainIdsQuery, countQuery, historyParams, listClaimsQuery } from './schema.js';
import { describe } from '../../openapi/describe.js';
import { arr, decimal, int, nullable, num, obj, str, stringMap } from '../../openapi/schemaHelpers.js';

const claimSchema = obj({
  id: str,
  chainId: int,
  recipient: str,
  blockNumber: int,
  timestamp: int,
  token: str,
  campaignId: nullable(str),
  reason: nullable(str),
  root: nullable(str),
  amount: decimal,
  metadata: obj({
    txHash: str,
    logIndex: int,
    blockHash: str,
    breakdowns: arr(obj({ campaignId: str, reason: str, amount: decimal })),
  }),
  isLatest: { type: 'boolean' },
});
const latestSchema = stringMap(
  obj({
    claims: arr(
      obj({ chainId: int, recipient: str, token: str, blockNumber: int, timestamp: int, txHash: str, amount: decimal }),
    ),
    etlWatermark: nullable(obj({ lastTimestamp: int, updatedAt: str })),
  }),
);
const statusSchema = stringMap(
  obj({
    chainId: int,
    sources: arr(
      obj({
        sourceId: str,
        chainId: int,
        currentBlock: nullable(int),
        lastFetchedBlock: int,
        blockDifference: nullable(int),
        claimCount: num,
        timeBehind: nullable(num),
      }),
    ),
  }),
);
const countSchema = { type: 'integer', minimum: 0 } as const;

/**
 * /v4/claims: indexed Claimed deltas and the claims pipeline's state (docs/api-behaviour.md#claims). Tables claims,
 * roots, reward_breakdowns, cursors, blocks.
 */
export function claimsRouter(deps: ApiDeps): Router {
  const router = new Router();
  const both = (path: string) => [path, `${path}/`];
  const noBody = { type: 'object', additionalProperties: false, properties: {} } as const;
  router.get(
    both('/claims'),
    describe({
      summary: 'Indexed claims, newest first',
      description:
        'Indexed claims (Distributor `Claimed` events), newest first, filtered by chain, recipient, campaign, token or root.',
      response: arr(claimSchema),
    }),
    validate({ query: listClaimsQuery }),
    listClaimsHandler(deps),
  );
  router.get(
    both('/claims/history/:address'),
    describe({
      summary: 'Claims of one recipient',
      description: 'The claims of one recipient, newest first, optionally on `chainIds` only.',
      response: arr(claimSchema),
    }),
    validate({ params: historyParams, query: chainIdsQuery }),
    claimsHistoryHandler(deps),
  );
  router.get(
    both('/claims/latest'),
    describe({
      summary: 'Latest claims and the claims watermark per chain (keyed by chain id)',
      description: 'The latest claims per chain and how far claims are indexed (watermark), keyed by chain id.',
      response: latestSchema,
    }),
    validate({ query: chainIdsQuery }),
    latestClaimsHandler(deps),
  );
  router.get(
    both('/claims/status'),
    describe({
      summary: 'Claims pipeline progress per chain (keyed by chain id)',
      description: 'Progress of the claims pipeline per chain (indexed block, head, lag), keyed by chain id.',
      response: statusSchema,
    }),
    validate({ query: chainIdsQuery }),
    claimsStatusHandler(deps),
  );
  router.get(
    both('/claims/count/total'),
    describe({
      summary: 'Claim counts over every chain',
      description: 'The number of indexed claims over every chain.',
      response: countSchema,
    }),
    validate({ query: noBody }),
    countTotalHandler(deps),
  );
  router.get(
    both('/claims/count'),
    describe({
      summary: 'Claim counts of one chain',
      description: 'The number of indexed claims on `chainId`.',
      response: countSchema,
    }),
    validate({ query: countQuery }),
    countClaimsHandler(deps),
  );
  return router;
}
