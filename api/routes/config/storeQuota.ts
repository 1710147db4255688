import type { PgClient } from '../../../internal/pg.js';
import { AppError } from '../../errors.js';
import { insertConfig, lockConfigStoreCaller, pendingConfigsOf, renewConfig } from './repo.js';
import { PROBLEMS } from '../../problems/registry.js';

export type StoreWithinQuotaParams = {
  hash: string;
  canonical: string;
  sizeBytes: number;
  /** configStoreCallerOf: null for the back office, which has no quota. */
  caller: string | null;
  maxPending: number;
  ttlDays: number;
};

/** Stored (or renewed), or refused: the caller's quota is full until `retryAfter` seconds from now. */
export type StoreWithinQuotaResult = { stored: true } | { stored: false; retryAfter: number };

/**
 * Stores a configuration inside the caller's transaction, within the caller's quota (issue #29 L2):
 * one already stored is only renewed (it adds no row, so it is always allowed); a new one is refused
 * while the caller holds `maxPending` configurations that no campaign uses, stored within `ttlDays`.
 * The caller's stores are serialized by an advisory lock, so concurrent ones cannot overshoot.
 * Table campaign_configs.
 */
export async function storeWithinQuota(
  client: PgClient,
  { hash, canonical, sizeBytes, caller, maxPending, ttlDays }: StoreWithinQuotaParams,
): Promise<StoreWithinQuotaResult> {
  if (caller !== null) {
    await lockConfigStoreCaller(client, caller);
    if (await renewConfig(client, hash)) return { stored: true };
    const pending = await pendingConfigsOf(client, { caller, ttlDays, upTo: maxPending });
    if (pending.count >= maxPending) {
      const leavesAt = pending.oldestLeavesAt?.getTime() ?? Date.now();
      return { stored: false, retryAfter: Math.max(1, Math.ceil((leavesAt - Date.now()) / 1000)) };
    }
  }
  await insertConfig(client, { hash, canonical, sizeBytes, storedBy: caller });
  return { stored: true };
}

/** The 429 problem of a full quota (its `Retry-After` is set by the handler). */
export function quotaExceededError(maxPending: number, ttlDays: number, retryAfter: number): AppError {
  return new AppError(
    PROBLEMS.CONFIG_STORE_QUOTA_EXCEEDED,
    `This caller already holds ${maxPending} stored configurations that no campaign uses, the most one caller may hold. ` +
      `One stops counting once a campaign commits to its hash on-chain or is associated with it, or ${ttlDays} days after it was last stored (the oldest in ${retryAfter} s); configurations already stored can still be stored again.`,
    { extensions: { maxPending, ttlDays } },
  );
}
