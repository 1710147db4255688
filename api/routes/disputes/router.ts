import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { describe } from '../../openapi/describe.js';
import {
  arr,
  bool,
  decimal,
  hex,
  int,
  isoDate,
  nullable,
  obj,
  oneOfValues,
  str,
  stringMap,
} from '../../openapi/schemaHelpers.js';
import { validate } from '../../validate.js';
import { chainDisputesHandler, disputeLiveHandler, disputesByRootHandler } from './handlers.js';
import { rootReportsHandler } from './reports.js';
import { chainDisputesQuery, chainParams, disputesByRootQuery, noQuery, reportsQuery } from './schema.js';

const disputeSchema = obj({
  chainId: int,
  root: nullable(hex),
  disputer: nullable(hex),
  message: str,
  createdAt: int,
  blockNumber: int,
  logIndex: int,
  txHash: hex,
  status: oneOfValues(['open', 'valid', 'invalid']),
  resolution: nullable(
    obj({
      valid: bool,
      resolvedAt: int,
      blockNumber: int,
      logIndex: int,
      txHash: hex,
      endOfDisputePeriod: nullable(int),
    }),
  ),
  rootRevoked: bool,
});

const DISPUTE_FIELDS =
  "Each dispute is read from the Distributor's own logs as the indexer stored them: `root`, the root disputed (the Distributor's `tree` when `disputeTree` was called: the last TreeUpdated before the Disputed log); `disputer`, who deposited (the Distributor's `disputer()` read at the Disputed log's block; null for a dispute indexed before it was kept); `message`, the reason given to `disputeTree`; `createdAt`, `blockNumber`, `logIndex` and `txHash` of the Disputed log (block time, Unix seconds); `status`: `open` until the governor's `resolveDispute`, then `valid` (the deposit was refunded and the root revoked) or `invalid` (the deposit went to the governor and the dispute period restarted from the resolution); `resolution`, the DisputeResolved log (`endOfDisputePeriod`: for an invalid dispute, the new end read from the contract at that block); `rootRevoked`, whether that root row is revoked now. The Distributor allows one dispute at a time, so a chain's disputes never overlap. Unlike the hosted service's dispute runs (its own bot's signed checks), these are on-chain disputes only: a dispute nobody sent to the contract is not here.";

/**
 * Root disputes and root reports (#46), read from the indexed Distributor logs (tables roots, distributor_events,
 * reward_trees): GET /disputes (per chain, per recent root), /disputes/{chainId} (a chain's history),
 * /roots/dispute (is a dispute open anywhere) and /roots/reports/{chainId} (each root's tree check).
 */
export function disputesRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(
    ['/disputes', '/disputes/'],
    describe({
      summary: 'Disputes of the latest roots of every chain',
      description: `Per chain id (every indexed chain, or \`chainId\`), per root among the chain's \`roots\` latest roots (default 10, at most 100; a root pushed again by a revoke counts once per push), the disputes opened on that root in chain order; a root nobody disputed has an empty list. ${DISPUTE_FIELDS}`,
      response: stringMap(stringMap(arr(disputeSchema))),
      errors: [404],
    }),
    validate({ query: disputesByRootQuery }),
    disputesByRootHandler(deps),
  );
  router.get(
    ['/disputes/:chainId', '/disputes/:chainId/'],
    describe({
      summary: "A chain's dispute history",
      description: `Every dispute of chain \`chainId\`, newest first, paged (\`page\`, \`items\`), optionally only those of one \`status\`. 404 for a chain not indexed here. ${DISPUTE_FIELDS}`,
      response: arr(disputeSchema),
      errors: [404],
    }),
    validate({ params: chainParams, query: chainDisputesQuery }),
    chainDisputesHandler(deps),
  );
  router.get(
    ['/roots/dispute', '/roots/dispute/'],
    describe({
      summary: 'Whether a dispute is open on any chain',
      description: `The hosted service's \`{ disputeLive, chainsChecked }\`: \`disputeLive\` is true while a dispute is open on at least one of \`chainsChecked\` (every indexed chain), by the indexed Disputed and DisputeResolved logs; \`open\` lists those open disputes (while one is open the chain serves its previous root, see GET /v4/roots/live). ${DISPUTE_FIELDS}`,
      response: obj({ disputeLive: bool, chainsChecked: arr(int), open: arr(disputeSchema) }),
    }),
    validate({ query: noQuery }),
    disputeLiveHandler(deps),
  );
  router.get(
    ['/roots/reports/:chainId', '/roots/reports/:chainId/'],
    describe({
      summary: "Reports on a chain's roots: the check of each root's reward tree",
      description:
        "The roots of chain `chainId` newest first, paged (`page`, `items`; every TreeUpdated, so a root pushed again by a revoke appears once per push), in the hosted shape `{ root, chainId, epoch, timestamp, isLatest, report }`: `epoch` is the hour it was pushed in, `timestamp` its block time (a decimal string), `isLatest` marks the chain's latest non-revoked root. `report` is this service's check of the root's published reward tree, in one sentence: `verified` (its leaves rebuild the root, so its rewards are served), `mismatch` (they rebuild another root; nothing is served from it), `unavailable` (it could not be fetched or parsed yet) or `pending`; the same check is in `treeStatus` (null for the zero root), `leaves`, `computedRoot` and `checkedAt`. `revoked`, `txHash` (of the TreeUpdated) and `disputes` (how many disputes were opened on it, see GET /v4/disputes/{chainId}) complete it. The hosted service's reports are its own engine's; ours only say what we checked. 404 for a chain not indexed here.",
      response: arr(
        obj({
          root: hex,
          chainId: int,
          epoch: int,
          timestamp: decimal,
          isLatest: bool,
          report: str,
          revoked: bool,
          txHash: hex,
          treeStatus: nullable(oneOfValues(['pending', 'verified', 'mismatch', 'unavailable'])),
          leaves: nullable(int),
          computedRoot: nullable(hex),
          checkedAt: nullable(isoDate),
          disputes: int,
        }),
      ),
      errors: [404],
    }),
    validate({ params: chainParams, query: reportsQuery }),
    rootReportsHandler(deps),
  );
  return router;
}
