import Router from '@koa/router';
import { describe } from '../../openapi/describe.js';
import { arr, bool, int, nullable, obj, str } from '../../openapi/schemaHelpers.js';
import type { ApiDeps } from '../../deps.js';
import type { AuthState } from '../../identity/types.js';
import {
  requireApiKey,
  requireBackOffice,
  requireCredential,
  requireCredentialOrBackOffice,
} from '../../middleware/auth.js';
import { validate } from '../../validate.js';
import {
  batchUpsertHandler,
  createStoreHandler,
  deleteEntryHandler,
  deleteStoreHandler,
  getEntryHandler,
  listEntriesHandler,
  listOwnStoresHandler,
  updateStoreHandler,
  upsertEntryHandler,
  upsertQuotaHandler,
} from './handlers.js';
import { listingHeaders } from './listingHeaders.js';
import {
  batchUpsertBody,
  createStoreBody,
  entryParams,
  listEntriesQuery,
  noQuery,
  quotaBody,
  storeKeyParams,
  updateStoreBody,
  upsertEntryBody,
} from './schema.js';

const quotaSchema = obj({
  ownerAddress: str,
  maxConfigs: int,
  maxSizeLimit: int,
  allowedTypes: arr(str),
  createdAt: str,
  updatedAt: str,
});
const storeSchema = obj({
  id: str,
  key: str,
  description: nullable(str),
  accessMode: { enum: ['API_KEY', 'PUBLIC'] },
  type: str,
  sizeLimit: int,
  publicRead: bool,
  ownerAddress: str,
  entryCount: int,
  createdAt: str,
  updatedAt: str,
});
const entrySchema = obj({ address: str, value: str, createdAt: str, updatedAt: str });
const successSchema = obj({ success: bool });

/**
 * Key-value stores (docs/api-behaviour.md#key-value-stores). Self-service store management with
 * an API key under a back-office quota, entry writes by the owner (API key or session) or, in PUBLIC
 * stores, by any wallet for its own address; reads public unless the store is not `publicRead`.
 * Every write is one transaction; entry counts never pass `sizeLimit`.
 * Tables: kv_quotas, kv_stores, kv_entries.
 */
export function keyValueStoresRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();

  router.post(
    '/internal/key-value-stores/quotas',
    describe({
      summary: 'Grant or replace a creator quota for self-service stores (back office)',
      response: quotaSchema,
    }),
    requireBackOffice,
    validate({ body: quotaBody }),
    upsertQuotaHandler(deps),
  );

  router.post(
    '/key-value-stores/self',
    describe({
      summary: 'Create a store owned by the API key owner, within its quota',
      response: storeSchema,
      errors: [403, 409],
    }),
    requireApiKey,
    validate({ body: createStoreBody }),
    createStoreHandler(deps),
  );
  router.get(
    '/key-value-stores/self',
    describe({ summary: 'Stores owned by the API key owner', response: arr(storeSchema) }),
    requireApiKey,
    validate({ query: noQuery }),
    listOwnStoresHandler(deps),
  );
  router.patch(
    '/key-value-stores/self/:key',
    describe({ summary: 'Update an owned store', response: storeSchema, errors: [404, 409] }),
    requireApiKey,
    validate({ params: storeKeyParams, body: updateStoreBody }),
    updateStoreHandler(deps),
  );
  router.delete(
    '/key-value-stores/self/:key',
    describe({ summary: 'Delete an owned store and its entries', response: successSchema, errors: [404] }),
    requireApiKey,
    validate({ params: storeKeyParams }),
    deleteStoreHandler(deps),
  );

  router.put(
    '/key-value-stores/:key/entries/batch',
    describe({
      summary: 'Upsert 1 to 1000 entries at once (owner API key; all or nothing)',
      response: obj({ success: bool, count: int }),
      errors: [403, 404, 409],
    }),
    requireApiKey,
    validate({ params: storeKeyParams, body: batchUpsertBody }),
    batchUpsertHandler(deps),
  );
  router.put(
    '/key-value-stores/:key/entries',
    describe({
      summary: 'Upsert one entry (owner, or a wallet for its own address in a PUBLIC store)',
      response: entrySchema,
      errors: [403, 404, 409],
    }),
    requireCredential,
    validate({ params: storeKeyParams, body: upsertEntryBody }),
    upsertEntryHandler(deps),
  );
  router.get(
    '/key-value-stores/:key/entries',
    describe({
      summary: 'Entries of a store, paged (page, pageSize, value also as headers)',
      response: obj({ entries: arr(entrySchema), total: int, page: int, pageSize: int }),
      errors: [401, 403, 404],
    }),
    listingHeaders,
    validate({ params: storeKeyParams, query: listEntriesQuery }),
    listEntriesHandler(deps),
  );
  router.get(
    '/key-value-stores/:key/entries/:address',
    describe({ summary: 'One entry of a store', response: entrySchema, errors: [401, 403, 404] }),
    validate({ params: entryParams, query: noQuery }),
    getEntryHandler(deps),
  );
  router.delete(
    '/key-value-stores/:key/entries/:address',
    describe({
      summary: 'Delete an entry (its own wallet in a PUBLIC store, the owner or the back office)',
      response: successSchema,
      errors: [401, 403, 404],
    }),
    requireCredentialOrBackOffice,
    validate({ params: entryParams }),
    deleteEntryHandler(deps),
  );
  return router;
}
