import { AppError } from '../../errors.js';
import type { EntryRow, KvRefusal, QuotaRow, StoreRow } from './repo.js';
import { PROBLEMS } from '../../problems/registry.js';

export function serializeQuota(r: QuotaRow) {
  return {
    ownerAddress: r.owner_address,
    maxConfigs: r.max_configs,
    maxSizeLimit: r.max_size_limit,
    allowedTypes: r.allowed_types,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

export function serializeStore(r: StoreRow) {
  return {
    id: r.id,
    key: r.key,
    description: r.description,
    accessMode: r.access_mode,
    type: r.type,
    sizeLimit: r.size_limit,
    publicRead: r.public_read,
    ownerAddress: r.owner_address,
    entryCount: r.entry_count,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

/**
 * Pure: the store record after a create or update, saying when the requested `sizeLimit` was capped
 * at the quota (`notices`, absent otherwise): the spec caps it rather than refusing it (issue 31).
 */
export function serializeWrittenStore(r: StoreRow, requestedSizeLimit: number | undefined) {
  const capped = requestedSizeLimit !== undefined && requestedSizeLimit > r.size_limit;
  return {
    ...serializeStore(r),
    ...(capped
      ? {
          notices: [
            {
              field: 'sizeLimit',
              message: `${requestedSizeLimit} is above your quota: capped at ${r.size_limit}`,
            },
          ],
        }
      : {}),
  };
}

export function serializeEntry(r: EntryRow) {
  return {
    address: r.address,
    value: r.value,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

/** A refused store or entry write as its problem body: 403 (quota), 404, 409 (conflicts, full store). */
export function refusalError(r: KvRefusal, key: string): AppError {
  switch (r.refused) {
    case 'no-quota':
      return new AppError(PROBLEMS.FORBIDDEN, 'Creating key-value stores needs a quota granted by the back office');
    case 'type-not-allowed':
      return new AppError(PROBLEMS.FORBIDDEN, `Your quota allows stores of type ${r.allowed.join(', ')}`, {
        errors: [{ field: 'type', message: `must be one of your quota's types: ${r.allowed.join(', ')}` }],
      });
    case 'too-many-stores':
      return new AppError(PROBLEMS.FORBIDDEN, `Your quota allows ${r.max} stores; delete one first`);
    case 'exists':
      return new AppError(PROBLEMS.CONFLICT, `You already have a store ${key}`);
    case 'missing':
      return new AppError(PROBLEMS.NOT_FOUND, `No key-value store ${key} of yours`);
    case 'below-count':
      return new AppError(PROBLEMS.CONFLICT, `The store holds ${r.count} entries: sizeLimit cannot go below that`, {
        errors: [{ field: 'sizeLimit', message: `must be at least ${r.count} (entries stored)` }],
      });
    case 'written-by-another':
      return new AppError(
        PROBLEMS.FORBIDDEN,
        `The entry in ${key} was written by its owner: only the owner may change or delete it`,
      );
    case 'store-full':
      return new AppError(
        PROBLEMS.STORE_FULL,
        `Store ${key} holds ${r.count} of ${r.sizeLimit} entries; ${r.adding} new entries do not fit and nothing was written`,
        { extensions: { sizeLimit: r.sizeLimit, count: r.count, adding: r.adding } },
      );
  }
}
