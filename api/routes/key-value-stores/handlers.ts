import type { ApiDeps } from '../../deps.js';
import { AppError, NotFoundError, ValidationError } from '../../errors.js';
import type { AuthState } from '../../identity/types.js';
import { canonicalKeyOf, canRead, canWriteEntry, ownerOfCaller, writesAsOwner } from './access.js';
import * as repo from './repo.js';
import type { Handler } from '../../validate.js';
import {
  entryProblem,
  type batchUpsertBody,
  type createStoreBody,
  type EntryInput,
  type entryParams,
  type listEntriesQuery,
  type noQuery,
  type quotaBody,
  type storeKeyParams,
  type updateStoreBody,
  type upsertEntryBody,
} from './schema.js';
import { refusalError, serializeEntry, serializeQuota, serializeStore, serializeWrittenStore } from './serialize.js';
import { PROBLEMS } from '../../problems/registry.js';

async function loadStore(deps: ApiDeps, key: string): Promise<repo.StoreRow> {
  const store = await repo.getStore(deps.pg, key);
  if (!store) throw new NotFoundError(`No key-value store ${key}`);
  return store;
}

/** Every entry's address and value checked against the store's type; one 400 naming each bad one. */
function checkEntries(type: repo.StoreRow['type'], entries: EntryInput[], prefix: string): void {
  const errors = entries.flatMap((e, i) => {
    const problem = entryProblem(type, e);
    return problem ? [{ field: `${prefix}${prefix ? `.${i}.` : ''}${problem.field}`, message: problem.message }] : [];
  });
  if (errors.length) throw new ValidationError(errors);
}

/** POST /v4/internal/key-value-stores/quotas: grants or replaces a creator's quota (back office). */
export function upsertQuotaHandler(deps: ApiDeps): Handler<{ body: typeof quotaBody }> {
  return async (ctx) => {
    ctx.body = serializeQuota(await repo.upsertQuota(deps.pg, ctx.state.body));
  };
}

/** POST /v4/key-value-stores/self: a store owned by the API key's owner, within its quota. */
export function createStoreHandler(deps: ApiDeps): Handler<{ body: typeof createStoreBody }> {
  return async (ctx) => {
    const body = ctx.state.body;
    const owner = ctx.state.apiKey!.ownerAddress;
    const result = await repo.createStore(deps.pg, owner, `${owner}:${body.key}`, body);
    if (repo.isRefusal(result)) throw refusalError(result, body.key);
    ctx.body = serializeWrittenStore(result, body.sizeLimit);
  };
}

/** GET /v4/key-value-stores/self: the stores the API key's owner owns. */
export function listOwnStoresHandler(deps: ApiDeps): Handler<{ query: typeof noQuery }> {
  return async (ctx) => {
    ctx.body = (await repo.listStores(deps.pg, ctx.state.apiKey!.ownerAddress)).map(serializeStore);
  };
}

/** PATCH /v4/key-value-stores/self/{key}: updates an owned store. */
export function updateStoreHandler(
  deps: ApiDeps,
): Handler<{ params: typeof storeKeyParams; body: typeof updateStoreBody }> {
  return async (ctx) => {
    const { key } = ctx.state.params;
    const result = await repo.updateStore(deps.pg, ctx.state.apiKey!.ownerAddress, canonicalKeyOf(key), ctx.state.body);
    if (repo.isRefusal(result)) throw refusalError(result, key);
    ctx.body = serializeWrittenStore(result, ctx.state.body.sizeLimit);
  };
}

/** DELETE /v4/key-value-stores/self/{key}: deletes an owned store and its entries. */
export function deleteStoreHandler(deps: ApiDeps): Handler<{ params: typeof storeKeyParams }> {
  return async (ctx) => {
    const { key } = ctx.state.params;
    if (!(await repo.deleteStore(deps.pg, ctx.state.apiKey!.ownerAddress, canonicalKeyOf(key))))
      throw new NotFoundError(`You own no key-value store ${key}`);
    ctx.body = { success: true };
  };
}

/** PUT /v4/key-value-stores/{key}/entries/batch: 1 to 1000 entries in one transaction (owner API keys only). */
export function batchUpsertHandler(
  deps: ApiDeps,
): Handler<{ params: typeof storeKeyParams; body: typeof batchUpsertBody }> {
  return async (ctx) => {
    const store = await loadStore(deps, canonicalKeyOf(ctx.state.params.key));
    if (store.owner_address !== ctx.state.apiKey!.ownerAddress)
      throw new AppError(PROBLEMS.FORBIDDEN, 'Only the API keys of the store owner may batch-write its entries');
    const { entries } = ctx.state.body;
    checkEntries(store.type, entries, 'entries');
    const result = await repo.upsertEntries(deps.pg, store.key, entries, ctx.state.apiKey!.ownerAddress);
    if (repo.isRefusal(result)) throw refusalError(result, store.key);
    ctx.body = { success: true, count: result.rows.length };
  };
}

/** PUT /v4/key-value-stores/{key}/entries: one entry (the owner, or a wallet for its own address in a PUBLIC store). */
export function upsertEntryHandler(
  deps: ApiDeps,
): Handler<{ params: typeof storeKeyParams; body: typeof upsertEntryBody }> {
  return async (ctx) => {
    const store = await loadStore(deps, canonicalKeyOf(ctx.state.params.key));
    const entry = ctx.state.body;
    const refusal = canWriteEntry(ctx.state, store, entry.address);
    if (refusal) throw new AppError(PROBLEMS.FORBIDDEN, refusal);
    checkEntries(store.type, [entry], '');
    const result = await repo.upsertEntries(deps.pg, store.key, [entry], ownerOfCaller(ctx.state)!, {
      ownEntriesOnly: !writesAsOwner(ctx.state, store),
    });
    if (repo.isRefusal(result)) throw refusalError(result, store.key);
    ctx.body = serializeEntry(result.rows[0]!);
  };
}

/** GET /v4/key-value-stores/{key}/entries: a page of entries, readable per the store's publicRead. */
export function listEntriesHandler(
  deps: ApiDeps,
): Handler<{ params: typeof storeKeyParams; query: typeof listEntriesQuery }> {
  return async (ctx) => {
    const store = await loadStore(deps, canonicalKeyOf(ctx.state.params.key));
    assertCanRead(ctx.state, store);
    const q = ctx.state.query;
    const { rows, total } = await repo.listEntries(deps.pg, store.key, q);
    ctx.body = { entries: rows.map(serializeEntry), total, page: q.page, pageSize: q.pageSize };
  };
}

/** GET /v4/key-value-stores/{key}/entries/{address}: one entry. */
export function getEntryHandler(deps: ApiDeps): Handler<{ params: typeof entryParams; query: typeof noQuery }> {
  return async (ctx) => {
    const { key, address } = ctx.state.params;
    const store = await loadStore(deps, canonicalKeyOf(key));
    assertCanRead(ctx.state, store);
    const row = await repo.getEntry(deps.pg, store.key, address!);
    if (!row) throw new NotFoundError(`No entry ${address} in ${store.key}`);
    ctx.body = serializeEntry(row);
  };
}

/** DELETE /v4/key-value-stores/{key}/entries/{address}: its own wallet in a PUBLIC store, the owner or the back office. */
export function deleteEntryHandler(deps: ApiDeps): Handler<{ params: typeof entryParams }> {
  return async (ctx) => {
    const { key, address } = ctx.state.params;
    const store = await loadStore(deps, canonicalKeyOf(key));
    const refusal = ctx.state.backOffice ? null : canWriteEntry(ctx.state, store, address!);
    if (refusal) throw new AppError(PROBLEMS.FORBIDDEN, refusal.replace('write', 'delete'));
    const deleted = await repo.deleteEntry(
      deps.pg,
      store.key,
      address!,
      ctx.state.backOffice || writesAsOwner(ctx.state, store) ? {} : { writtenBy: ownerOfCaller(ctx.state)! },
    );
    if (repo.isRefusal(deleted)) throw refusalError(deleted, store.key);
    if (!deleted) throw new NotFoundError(`No entry ${address} in ${store.key}`);
    ctx.body = { success: true };
  };
}

function assertCanRead(state: AuthState, store: repo.StoreRow): void {
  const verdict = canRead(state, store);
  if (verdict === 'anonymous')
    throw new AppError(
      PROBLEMS.UNAUTHORIZED,
      `Store ${store.key} is not publicly readable: send the owner's x-api-key or jwt session`,
    );
  if (verdict === 'forbidden')
    throw new AppError(PROBLEMS.FORBIDDEN, `Only the owner of ${store.key} or the back office may read it`);
}
