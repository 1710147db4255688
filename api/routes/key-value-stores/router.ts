import Router from '@koa/router';
import { describe } from '../../openapi/describe.js';
import { arr, bool, int, nullable, obj, str } from '../../openapi/schemaHelpers.js';
import type { Context, Next } from 'koa';
import type { ApiDeps } from '../../deps.js';
import { AppError, NotFoundError, ValidationError } from '../../errors.js';
import type { AuthState } from '../../identity/types.js';
import {
  requireApiKey,
  requireBackOffice,
  requireCredential,
  requireCredentialOrBackOffice,
} from '../../middleware/auth.js';
import { acceptsHeaders } from '../../middleware/corsRoutes.js';
import { validate } from '../../validate.js';
import { canonicalKeyOf, canRead, canWriteEntry, ownerOfCaller, writesAsOwner } from './access.js';
import * as repo from './repo.js';
import {
  batchUpsertBody,
  createStoreBody,
  entryParams,
  entryProblem,
  listEntriesQuery,
  noQuery,
  quotaBody,
  storeKeyParams,
  updateStoreBody,
  upsertEntryBody,
  type CreateStoreBody,
  type EntryInput,
  type ListEntriesQuery,
  type QuotaBody,
  type UpdateStoreBody,
} from './schema.js';
import { refusalError, serializeEntry, serializeQuota, serializeStore } from './serialize.js';

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

type State = AuthState & { params: { key: string; address?: string }; query: ListEntriesQuery; body: unknown };

/** Listing parameters may also arrive as headers (spec); the query string wins. */
async function listingHeaders(ctx: Context, next: Next): Promise<void> {
  const fromHeaders = Object.fromEntries(
    (['page', 'pageSize', 'value'] as const)
      .map((name) => [name, ctx.get(name)] as const)
      .filter(([name, value]) => value !== '' && ctx.query[name] === undefined),
  );
  if (Object.keys(fromHeaders).length) ctx.query = { ...ctx.query, ...fromHeaders };
  await next();
}
acceptsHeaders(listingHeaders, ['page', 'pageSize', 'value']);

/** Every entry's address and value checked against the store's type; one 400 naming each bad one. */
function checkEntries(type: repo.StoreRow['type'], entries: EntryInput[], prefix: string): void {
  const errors = entries.flatMap((e, i) => {
    const problem = entryProblem(type, e);
    return problem ? [{ field: `${prefix}${prefix ? `.${i}.` : ''}${problem.field}`, message: problem.message }] : [];
  });
  if (errors.length) throw new ValidationError(errors);
}

/**
 * Key-value stores (spec: Key-value stores; docs/api-behaviour.md#key-value-stores). Self-service store management with
 * an API key under a back-office quota, entry writes by the owner (API key or session) or, in PUBLIC
 * stores, by any wallet for its own address; reads public unless the store is not `publicRead`.
 * Every write is one transaction; entry counts never pass `sizeLimit`.
 * Tables: kv_quotas, kv_stores, kv_entries.
 */
export function keyValueStoresRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<State>();
  const loadStore = async (key: string): Promise<repo.StoreRow> => {
    const store = await repo.getStore(deps.pg, key);
    if (!store) throw new NotFoundError(`No key-value store ${key}`);
    return store;
  };

  router.post(
    '/internal/key-value-stores/quotas',
    describe({
      summary: 'Grant or replace a creator quota for self-service stores (back office)',
      response: quotaSchema,
    }),
    requireBackOffice,
    validate({ body: quotaBody }),
    async (ctx) => {
      ctx.body = serializeQuota(await repo.upsertQuota(deps.pg, ctx.state.body as QuotaBody));
    },
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
    async (ctx) => {
      const body = ctx.state.body as CreateStoreBody;
      const owner = ctx.state.apiKey!.ownerAddress;
      const result = await repo.createStore(deps.pg, owner, `${owner}:${body.key}`, body);
      if (repo.isRefusal(result)) throw refusalError(result, body.key);
      ctx.body = serializeStore(result);
    },
  );
  router.get(
    '/key-value-stores/self',
    describe({ summary: 'Stores owned by the API key owner', response: arr(storeSchema) }),
    requireApiKey,
    validate({ query: noQuery }),
    async (ctx) => {
      ctx.body = (await repo.listStores(deps.pg, ctx.state.apiKey!.ownerAddress)).map(serializeStore);
    },
  );
  router.patch(
    '/key-value-stores/self/:key',
    describe({ summary: 'Update an owned store', response: storeSchema, errors: [404, 409] }),
    requireApiKey,
    validate({ params: storeKeyParams, body: updateStoreBody }),
    async (ctx) => {
      const { key } = ctx.state.params;
      const result = await repo.updateStore(
        deps.pg,
        ctx.state.apiKey!.ownerAddress,
        canonicalKeyOf(key),
        ctx.state.body as UpdateStoreBody,
      );
      if (repo.isRefusal(result)) throw refusalError(result, key);
      ctx.body = serializeStore(result);
    },
  );
  router.delete(
    '/key-value-stores/self/:key',
    describe({ summary: 'Delete an owned store and its entries', response: successSchema, errors: [404] }),
    requireApiKey,
    validate({ params: storeKeyParams }),
    async (ctx) => {
      const { key } = ctx.state.params;
      if (!(await repo.deleteStore(deps.pg, ctx.state.apiKey!.ownerAddress, canonicalKeyOf(key))))
        throw new NotFoundError(`You own no key-value store ${key}`);
      ctx.body = { success: true };
    },
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
    async (ctx) => {
      const store = await loadStore(canonicalKeyOf(ctx.state.params.key));
      if (store.owner_address !== ctx.state.apiKey!.ownerAddress)
        throw new AppError(403, 'FORBIDDEN', 'Only the API keys of the store owner may batch-write its entries');
      const { entries } = ctx.state.body as { entries: EntryInput[] };
      checkEntries(store.type, entries, 'entries');
      const result = await repo.upsertEntries(deps.pg, store.key, entries, ctx.state.apiKey!.ownerAddress);
      if (repo.isRefusal(result)) throw refusalError(result, store.key);
      ctx.body = { success: true, count: result.rows.length };
    },
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
    async (ctx) => {
      const store = await loadStore(canonicalKeyOf(ctx.state.params.key));
      const entry = ctx.state.body as EntryInput;
      const refusal = canWriteEntry(ctx.state, store, entry.address);
      if (refusal) throw new AppError(403, 'FORBIDDEN', refusal);
      checkEntries(store.type, [entry], '');
      const result = await repo.upsertEntries(deps.pg, store.key, [entry], ownerOfCaller(ctx.state)!, {
        ownEntriesOnly: !writesAsOwner(ctx.state, store),
      });
      if (repo.isRefusal(result)) throw refusalError(result, store.key);
      ctx.body = serializeEntry(result.rows[0]!);
    },
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
    async (ctx) => {
      const store = await loadStore(canonicalKeyOf(ctx.state.params.key));
      assertCanRead(ctx.state, store);
      const q = ctx.state.query;
      const { rows, total } = await repo.listEntries(deps.pg, store.key, q);
      ctx.body = { entries: rows.map(serializeEntry), total, page: q.page, pageSize: q.pageSize };
    },
  );
  router.get(
    '/key-value-stores/:key/entries/:address',
    describe({ summary: 'One entry of a store', response: entrySchema, errors: [401, 403, 404] }),
    validate({ params: entryParams, query: noQuery }),
    async (ctx) => {
      const { key, address } = ctx.state.params;
      const store = await loadStore(canonicalKeyOf(key));
      assertCanRead(ctx.state, store);
      const row = await repo.getEntry(deps.pg, store.key, address!);
      if (!row) throw new NotFoundError(`No entry ${address} in ${store.key}`);
      ctx.body = serializeEntry(row);
    },
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
    async (ctx) => {
      const { key, address } = ctx.state.params;
      const store = await loadStore(canonicalKeyOf(key));
      const refusal = ctx.state.backOffice ? null : canWriteEntry(ctx.state, store, address!);
      if (refusal) throw new AppError(403, 'FORBIDDEN', refusal.replace('write', 'delete'));
      const deleted = await repo.deleteEntry(
        deps.pg,
        store.key,
        address!,
        ctx.state.backOffice || writesAsOwner(ctx.state, store) ? {} : { writtenBy: ownerOfCaller(ctx.state)! },
      );
      if (repo.isRefusal(deleted)) throw refusalError(deleted, store.key);
      if (!deleted) throw new NotFoundError(`No entry ${address} in ${store.key}`);
      ctx.body = { success: true };
    },
  );
  return router as unknown as Router<AuthState>;
}

function assertCanRead(state: AuthState, store: repo.StoreRow): void {
  const verdict = canRead(state, store);
  if (verdict === 'anonymous')
    throw new AppError(
      401,
      'UNAUTHORIZED',
      `Store ${store.key} is not publicly readable: send the owner's x-api-key or jwt session`,
    );
  if (verdict === 'forbidden')
    throw new AppError(403, 'FORBIDDEN', `Only the owner of ${store.key} or the back office may read it`);
}
