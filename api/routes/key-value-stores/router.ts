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
import { entryBodyExamples, storeValueFormats, VALUE_EXAMPLES } from './valueFormats.js';
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
const storeFields = {
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
};
const storeSchema = obj(storeFields);
/** A created or updated store: `notices` says when the requested sizeLimit was capped at the quota. */
const writtenStoreSchema = obj({ ...storeFields, notices: arr(obj({ field: str, message: str })) }, ['notices']);
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
      description:
        'Grants (or replaces) the quota under which `ownerAddress` may create stores with an API key: how many stores, the largest `sizeLimit`, and which store types.',
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
      description:
        "Creates a store owned by the API key's owner. `key` is a suffix: the store's canonical key, returned in `key`, is `<owner address>:<suffix>`, and every other store and entry path takes that canonical key. Needs a quota from the back office (403 without one or for a type it does not allow); a `sizeLimit` above the quota's `maxSizeLimit` is capped at it, and `notices` says so; 409 when the key exists or the quota's store count is reached. `type` fixes the JSON shape of every entry's value (see the entry upsert).",
      response: writtenStoreSchema,
      errors: [403, 409],
    }),
    requireApiKey,
    validate({ body: createStoreBody }),
    createStoreHandler(deps),
  );
  router.get(
    '/key-value-stores/self',
    describe({
      summary: 'Stores owned by the API key owner',
      description: "The stores owned by the API key's owner, with their entry counts.",
      response: arr(storeSchema),
    }),
    requireApiKey,
    validate({ query: noQuery }),
    listOwnStoresHandler(deps),
  );
  router.patch(
    '/key-value-stores/self/:key',
    describe({
      summary: 'Update an owned store',
      description:
        "Changes an owned store's description, `publicRead`, `sizeLimit` or `accessMode`. A `sizeLimit` above the quota is capped at it (`notices` says so); one below the current entry count is a 409.",
      response: writtenStoreSchema,
      errors: [404, 409],
    }),
    requireApiKey,
    validate({ params: storeKeyParams, body: updateStoreBody }),
    updateStoreHandler(deps),
  );
  router.delete(
    '/key-value-stores/self/:key',
    describe({
      summary: 'Delete an owned store and its entries',
      description: 'Deletes an owned store with all its entries.',
      response: successSchema,
      errors: [404],
    }),
    requireApiKey,
    validate({ params: storeKeyParams }),
    deleteStoreHandler(deps),
  );

  router.put(
    '/key-value-stores/:key/entries/batch',
    describe({
      summary: 'Upsert 1 to 1000 entries at once (owner API key; all or nothing)',
      description:
        "Inserts or replaces 1 to 1000 entries in one transaction: all are written or none. Only the owner's API keys may batch-write. Each value must fit the store type (see the entry upsert); an error names the entry, e.g. `entries.3.value`. 409 when the batch would pass `sizeLimit`.",
      bodyExamples: {
        BOOST: {
          summary: 'Two entries of a BOOST store',
          value: {
            entries: [
              { address: '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174', value: JSON.stringify(VALUE_EXAMPLES.BOOST) },
              { address: '0x7ceB23fD6bC0adD59E62ac25578270cFf1b9f619', value: '{"multiplier":2}' },
            ],
          },
        },
      },
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
      description: `Inserts or replaces the entry of \`address\`. \`value\` is JSON text whose shape depends on the store type:\n\n${storeValueFormats()}\n\nThe owner writes any entry (API key or session); in a PUBLIC store a signed-in wallet may also write the entry of its own address. 409 when a new entry would pass \`sizeLimit\`.`,
      bodyExamples: entryBodyExamples(),
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
      description:
        "A page of the store's entries, oldest first, with the total. `value` keeps only entries with exactly that value. `page`, `pageSize` and `value` are also accepted as headers. A store that is not `publicRead` is readable only by its owner and the back office.",
      response: obj({ entries: arr(entrySchema), total: int, page: int, pageSize: int }),
      errors: [401, 403, 404],
    }),
    listingHeaders,
    validate({ params: storeKeyParams, query: listEntriesQuery }),
    listEntriesHandler(deps),
  );
  router.get(
    '/key-value-stores/:key/entries/:address',
    describe({
      summary: 'One entry of a store',
      description:
        'The entry of `address` in the store (404 when absent). A store that is not `publicRead` is readable only by its owner and the back office.',
      response: entrySchema,
      errors: [401, 403, 404],
    }),
    validate({ params: entryParams, query: noQuery }),
    getEntryHandler(deps),
  );
  router.delete(
    '/key-value-stores/:key/entries/:address',
    describe({
      summary: 'Delete an entry (its own wallet in a PUBLIC store, the owner or the back office)',
      description:
        'Deletes the entry of `address`. Allowed to the store owner, the back office, and in a PUBLIC store the wallet of that address.',
      response: successSchema,
      errors: [401, 403, 404],
    }),
    requireCredentialOrBackOffice,
    validate({ params: entryParams }),
    deleteEntryHandler(deps),
  );
  return router;
}
