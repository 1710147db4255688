import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import type { AuthState } from '../../identity/types.js';
import { requireBackOffice } from '../../middleware/auth.js';
import { describe } from '../../openapi/describe.js';
import { arr, bool, decimal, int, obj, str, stringMap } from '../../openapi/schemaHelpers.js';
import { validate } from '../../validate.js';
import {
  addBlacklistHandler,
  blacklistMappingHandler,
  checkBlacklistHandler,
  listBlacklistHandler,
  removeBlacklistHandler,
} from './handlers.js';
import { addBlacklistBody, addressParams, checkQuery, listBlacklistQuery, noQuery } from './schema.js';

const entrySchema = obj({
  id: str,
  chainId: int,
  poolAddress: str,
  userAddress: str,
  arrestTimestamp: decimal,
  arrestDetails: obj({ reason: str }, ['reason']),
});

/**
 * What a blacklist entry does here, said once for every route of the family. This service does not compute reward
 * amounts (the reward trees come from the engine that pushes roots, and the Distributor pays any valid proof), so it
 * cannot take rewards away; it records, serves and flags.
 */
const EFFECT =
  'What an entry does in this service: it is served here (list, mapping, check) and flagged on the wallet (`blacklistedChainIds` of GET /v4/users/{address}), for the engine that computes reward trees and for front ends to read. It does not change reward amounts, proofs or claims: trees come from the engine that pushes roots and are served as published (GET /v4/users/{address}/rewards still lists what the live tree holds), and the Distributor pays any valid proof. Entries are addresses per chain, optionally per pool (`poolAddress`; the zero address means every pool of the chain).';

/**
 * /v4/blacklists: addresses excluded from rewards per chain (#46), public reads and back-office writes recorded in
 * back_office_audit. Table blacklists.
 */
export function blacklistsRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  router.get(
    ['/blacklists', '/blacklists/'],
    describe({
      summary: 'Blacklisted addresses',
      description: `Blacklist entries newest first, paged (\`page\`, \`items\`), optionally of one \`chainId\`: \`{ id, chainId, poolAddress, userAddress, arrestTimestamp, arrestDetails }\` as the hosted service serves them (\`arrestTimestamp\`: when it was added, Unix seconds as a decimal string; \`arrestDetails.reason\` when one was given). ${EFFECT}`,
      response: arr(entrySchema),
    }),
    validate({ query: listBlacklistQuery }),
    listBlacklistHandler(deps),
  );
  router.get(
    ['/blacklists/mapping', '/blacklists/mapping/'],
    describe({
      summary: 'Every blacklisted address, as a map',
      description: `\`{ [address]: true }\` for every address blacklisted on at least one chain (lower-case). ${EFFECT}`,
      response: stringMap(bool),
    }),
    validate({ query: noQuery }),
    blacklistMappingHandler(deps),
  );
  router.get(
    ['/blacklists/check/:address', '/blacklists/check/:address/'],
    describe({
      summary: 'Whether an address is blacklisted',
      description: `\`true\` when the address has an entry on \`chainId\` (any pool), or on any chain when \`chainId\` is left out; else \`false\`. ${EFFECT}`,
      response: bool,
    }),
    validate({ params: addressParams, query: checkQuery }),
    checkBlacklistHandler(deps),
  );
  router.post(
    ['/blacklists', '/blacklists/'],
    describe({
      summary: 'Blacklist an address on a chain (back office)',
      description: `Adds an entry for \`userAddress\` on \`chainId\` (a chain indexed here, else 400), for \`poolAddress\` or, left out, every pool of the chain, with an optional \`reason\`: 201 with the entry when new; the same chain, user and pool again replaces its reason and time (200). Recorded in the back-office audit log (who, when, before and after) in the same transaction. Nothing in the search index depends on it, so there is nothing to re-project. ${EFFECT}`,
      response: entrySchema,
    }),
    requireBackOffice,
    validate({ body: addBlacklistBody }),
    addBlacklistHandler(deps),
  );
  router.delete(
    ['/blacklists/user/:address', '/blacklists/user/:address/'],
    describe({
      summary: 'Remove an address from the blacklist (back office)',
      description: `Removes every entry of the address (every chain and pool): \`true\` when there was one, \`false\` when it was not blacklisted. Each removed entry is recorded in the back-office audit log in the same transaction. ${EFFECT}`,
      response: bool,
    }),
    requireBackOffice,
    validate({ params: addressParams }),
    removeBlacklistHandler(deps),
  );
  return router;
}
