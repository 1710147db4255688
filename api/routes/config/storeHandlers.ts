import type { Context } from 'koa';
import type { ApiDeps } from '../../deps.js';
import { AppError, NotFoundError, ValidationError } from '../../errors.js';
import { withTransaction as withWriteTransaction } from '../../../internal/pg.js';
import { canonicalJson, hashConfig, MAX_CONFIG_BYTES } from './canonicalJson.js';
import { associateConfig, getConfig } from './repo.js';
import { quotaExceededError, storeWithinQuota } from './storeQuota.js';
import { clientKeyOf } from '../../middleware/clientAddress.js';
import type { AuthState } from '../../identity/types.js';
import { configStoreCallerOf } from './storeCaller.js';
import type { Handler } from '../../validate.js';
import { campaignVisibilityOf, visibleOnChainCampaign } from '../../visibility/campaignVisibility.js';
import { decideAttach } from './attachGrounds.js';
import type { configHashParams, configHashQuery } from './schema.js';
import { PROBLEMS } from '../../problems/registry.js';

/** Response of POST /v4/config/store: the `0x`-prefixed SHA-256 of the configuration's canonical JSON. */
export type StoreConfigResult = { hash: string };

/**
 * POST /v4/config/store: stores a free-form configuration object (≤ 16,384 bytes of canonical
 * JSON, else 413) keyed by its hash and answers `{ hash }`; the same configuration, whatever its
 * key order or whitespace, always gets the same hash. Storing a configuration already stored
 * renews it (the retention TTL counts from the last store) and adds nothing. A new one counts
 * against its caller's quota (issue #29 L2): at most CONFIG_STORE_MAX_PENDING configurations that
 * no campaign uses, stored within CONFIG_STORE_UNASSOCIATED_TTL_DAYS, per caller (configStoreCallerOf;
 * the back office has none; see storeWithinQuota); past it a 429 problem with `Retry-After` until
 * the oldest leaves the window. Table campaign_configs.
 */
export function storeConfigHandler(deps: ApiDeps) {
  const clientKey = clientKeyOf(deps.config.trustedProxies);
  const { maxPendingPerCaller: maxPending, unassociatedTtlDays: ttlDays } = deps.config.configStore;
  return async (ctx: Context): Promise<void> => {
    const body = (ctx.request as { body?: unknown }).body;
    if (body === null || typeof body !== 'object' || Array.isArray(body) || !Object.keys(body).length) {
      throw new ValidationError([{ field: 'body', message: 'must be a non-empty configuration object' }]);
    }
    const canonical = canonicalJson(body);
    const sizeBytes = Buffer.byteLength(canonical, 'utf8');
    if (sizeBytes > MAX_CONFIG_BYTES) {
      throw new AppError(
        PROBLEMS.PAYLOAD_TOO_LARGE,
        `Configuration is ${sizeBytes} bytes of JSON; at most ${MAX_CONFIG_BYTES} are stored`,
        {
          errors: [
            { field: 'body', message: `must be at most ${MAX_CONFIG_BYTES} bytes JSON-encoded (got ${sizeBytes})` },
          ],
        },
      );
    }
    const hash = hashConfig(body);
    const caller = configStoreCallerOf(ctx.state as AuthState, clientKey(ctx));
    const result = await withWriteTransaction(deps.pg, (client) =>
      storeWithinQuota(client, { hash, canonical, sizeBytes, caller, maxPending, ttlDays }),
    );
    if (!result.stored) {
      ctx.set('Retry-After', String(result.retryAfter));
      throw quotaExceededError(maxPending, ttlDays, result.retryAfter);
    }
    ctx.body = { hash } satisfies StoreConfigResult;
  };
}

/** Response header of GET /v4/config/hash/{hash} saying whether the configuration was attached to the campaign asked for. */
export const ASSOCIATION_HEADER = 'x-config-association';

/**
 * GET /v4/config/hash/{hash}: the stored configuration (404 when unknown). With both `campaignId`
 * and `distributionChainId` it also attaches the configuration to that campaign, idempotently and in
 * the same transaction as the read, when `decideAttach` allows it (the campaign commits to the
 * hash on-chain, or the caller is its creator or the back office); otherwise it attaches nothing.
 * Either way the `x-config-association` header says `attached; grounds=…` or `not-attached; reason="…"`
 * (the 404 of an unknown hash included); CORS exposes it to pages on other origins.
 * Tables campaign_configs, campaign_config_associations (campaigns, campaign_privacy to decide).
 */
export function getConfigHandler(
  deps: ApiDeps,
): Handler<{ params: typeof configHashParams; query: typeof configHashQuery }> {
  return async (ctx) => {
    const { hash: rawHash } = ctx.state.params;
    const { campaignId, distributionChainId } = ctx.state.query;
    if ((campaignId === undefined) !== (distributionChainId === undefined)) {
      const missing = campaignId === undefined ? 'campaignId' : 'distributionChainId';
      throw new ValidationError([
        {
          field: missing,
          message: 'is required to associate the configuration (give campaignId and distributionChainId together)',
        },
      ]);
    }
    const hash = rawHash.toLowerCase();
    if (campaignId === undefined || distributionChainId === undefined) {
      const found = await getConfig(deps.pg, hash);
      if (!found) throw new NotFoundError(`No configuration stored under ${hash}`);
      ctx.body = found.config;
      return;
    }
    const visible = await campaignVisibilityOf(deps, ctx.state, true);
    const campaign = await visibleOnChainCampaign(deps.pg, visible, distributionChainId, campaignId);
    const decision = decideAttach(campaign, hash, ctx.state);
    const found = await withWriteTransaction(deps.pg, async (client) => {
      const row = await getConfig(client, hash, { forAttach: decision.attach });
      if (row && decision.attach)
        await associateConfig(client, {
          hash,
          distributionChainId,
          campaignId: campaignId.toLowerCase(),
          grounds: decision.grounds,
        });
      return row;
    });
    if (!found) {
      // Asked to attach: say it was not, as for every other answer to that request.
      ctx.set(ASSOCIATION_HEADER, 'not-attached; reason="no configuration is stored under this hash"');
      throw new NotFoundError(`No configuration stored under ${hash}`);
    }
    ctx.set(
      ASSOCIATION_HEADER,
      decision.attach ? `attached; grounds=${decision.grounds}` : `not-attached; reason="${decision.reason}"`,
    );
    ctx.body = found.config;
  };
}
