import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { nodeHandler } from './handlers.js';
import { nodeQuery } from './schema.js';
import { describe } from '../../openapi/describe.js';
import { arr, int, nullable, obj, str, stringMap } from '../../openapi/schemaHelpers.js';
import { CURSOR_JOBS } from './indexingState.js';
import { lastBlockHandler, NODE_STATUS_CACHE_MS, nodeStatusHandler } from './statusHandlers.js';
import { lastBlockQuery } from './statusSchema.js';

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
  router.get(
    ['/node/status', '/node/status/'],
    describe({
      summary: "Each chain's node head and how far each indexing job has got (hosted node/status shape)",
      cacheControl: 'no-store',
      description: `Keyed by chain id, every configured chain with one item per indexing job that keeps a cursor there (${CURSOR_JOBS.map((j) => `\`${j}\``).join(', ')}): \`protocolId\` the job, \`lastFetchedBlock\` (= \`oldestBlock\`: one cursor per job and chain, \`nodeCount\` 1) the last block it processed, \`currentBlock\` the head the chain's node answers now, \`blockDifference\` the blocks still to process, \`totalBlockRange\` the blocks from the chain's configured start block to the head, \`timeBehind\` the chain seconds between the cursor's block and the head (null when that block's header is not stored). \`protocol\` is always null (a job is no protocol). Beyond the hosted shape, \`nodeError\` says why a chain's head is unknown (its head-derived figures are then null): each head is read within the request's chain-read deadline through the chain's read gate, so a slow or down node costs its own chain, never the answer. One computation is shared for ${NODE_STATUS_CACHE_MS} ms.`,
      response: stringMap(
        obj({
          chainId: int,
          nodeError: nullable(str),
          protocols: arr(
            obj({
              protocolId: str,
              protocol: { type: 'null' },
              chainId: int,
              oldestBlock: int,
              currentBlock: nullable(int),
              lastFetchedBlock: int,
              blockDifference: nullable(int),
              totalBlockRange: nullable(int),
              source: str,
              nodeCount: int,
              timeBehind: nullable(int),
            }),
          ),
        }),
      ),
      example: {
        '1': {
          chainId: 1,
          nodeError: null,
          protocols: [
            {
              protocolId: 'campaigns',
              protocol: null,
              chainId: 1,
              oldestBlock: 21_004_500,
              currentBlock: 21_004_512,
              lastFetchedBlock: 21_004_500,
              blockDifference: 12,
              totalBlockRange: 3_004_512,
              source: 'cursors',
              nodeCount: 1,
              timeBehind: 144,
            },
          ],
        },
      },
    }),
    nodeStatusHandler(deps),
  );
  router.get(
    ['/node/last-block', '/node/last-block/'],
    describe({
      summary: 'The last block an indexing job processed on a chain (hosted node/last-block shape)',
      cacheControl: 'no-store',
      description: `The cursor of \`protocol\` (an indexing job: ${CURSOR_JOBS.map((j) => `\`${j}\``).join(', ')}) on \`chainId\`, or without \`protocol\` the most advanced cursor of the chain: \`lastFetchedBlockNumber\` the last block it processed. \`null\` when no such job has run on the chain. A chain we do not index is a 400 naming \`chainId\`.`,
      response: nullable(obj({ protocol: str, chainId: int, lastFetchedBlockNumber: int, source: str })),
      example: { protocol: 'campaigns', chainId: 1, lastFetchedBlockNumber: 21_004_500, source: 'cursors' },
    }),
    validate({ query: lastBlockQuery }),
    lastBlockHandler(deps),
  );
  return router;
}
