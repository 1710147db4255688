import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { requireCredential } from '../../middleware/auth.js';
import { validate } from '../../validate.js';
import {
  createListHandler,
  deleteListHandler,
  getListHandler,
  ownerListsHandler,
  updateListHandler,
} from './handlers.js';
import { createListBody, nameParams, noQuery, ownerListParams, ownerParams, updateListBody } from './schema.js';
import { describe } from '../../openapi/describe.js';
import { arr, bool, obj, str } from '../../openapi/schemaHelpers.js';

const LIST = obj({ owner: str, name: str, campaignIds: arr(str), createdAt: str, updatedAt: str });

/**
 * Campaign lists (what the `campaignLists` + `listOwner` filter of GET /v4/campaigns reads): named sets of
 * internal campaign ids owned by an address. Anyone reads any owner's lists; the owner — its wallet
 * session or one of its API keys — creates, renames, edits and deletes them. Names are
 * case-insensitive (stored lower-case). Tables: campaign_lists.
 */
export function campaignListsRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(
    '/campaign-lists/:owner',
    describe({
      summary: 'Campaign lists of an owner',
      description:
        "The campaign lists of `owner` (an address), each with its campaign ids. Anyone may read any owner's lists.",
      response: arr(LIST),
    }),
    validate({ params: ownerParams, query: noQuery }),
    ownerListsHandler(deps),
  );
  router.get(
    '/campaign-lists/:owner/:name',
    describe({
      summary: 'One campaign list',
      description: 'One campaign list of `owner` by name (names are case-insensitive).',
      response: LIST,
    }),
    validate({ params: ownerListParams, query: noQuery }),
    getListHandler(deps),
  );
  router.post(
    '/campaign-lists',
    describe({
      summary: 'Create a campaign list',
      description:
        'Creates a campaign list owned by the caller; names are case-insensitive and unique per owner (409). GET /v4/campaigns?listOwner=…&campaignLists=… reads the campaigns in lists.',
      response: LIST,
      errors: [409],
    }),
    requireCredential,
    validate({ body: createListBody }),
    createListHandler(deps),
  );
  router.patch(
    '/campaign-lists/:name',
    describe({
      summary: 'Rename a list or add and remove campaign ids',
      description:
        "Renames one of the caller's lists and/or adds and removes campaign ids. The path names the list (`{owner}` holds the list name here); 409 when the new name is taken.",
      response: LIST,
      errors: [409],
    }),
    requireCredential,
    validate({ params: nameParams, body: updateListBody }),
    updateListHandler(deps),
  );
  router.delete(
    '/campaign-lists/:name',
    describe({
      summary: 'Delete a campaign list',
      description: "Deletes one of the caller's lists (the path names the list).",
      response: obj({ success: bool }),
    }),
    requireCredential,
    validate({ params: nameParams }),
    deleteListHandler(deps),
  );
  return router;
}
