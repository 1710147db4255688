import type { Context, Next } from 'koa';
import { campaignVisibilityOf, resolveVisibleCampaignDbId } from '../../visibility/campaignVisibility.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { NotFoundError } from '../../errors.js';
import { checkOverride } from './checkOverride.js';
import { loadCampaignVersions } from './repo.js';
import type { Handler } from '../../validate.js';
import type { checkOverrideBody, previousConfigsParams } from './schema.js';
import { previousConfigs } from './serialize.js';

/**
 * Form and multipart bodies carry objects as JSON text: parses `oldConfig` / `newConfig` given as
 * a JSON object string so the schema sees an object (anything else is left for it to refuse).
 */
export async function parseJsonConfigFields(ctx: Context, next: Next): Promise<void> {
  const body = (ctx.request as { body?: unknown }).body;
  if (body && typeof body === 'object') {
    for (const key of ['oldConfig', 'newConfig']) {
      const value = (body as Record<string, unknown>)[key];
      if (typeof value === 'string' && value.trim().startsWith('{')) {
        try {
          (body as Record<string, unknown>)[key] = JSON.parse(value);
        } catch {
          // left as a string: the schema names the field
        }
      }
    }
  }
  await next();
}

/**
 * POST /v4/overrides/check, as of now, per the four override rules of checkOverride: one shape,
 * `{ isValid, errors: [{ path, message }] }` (docs/api-behaviour.md#overrides; issue 31 dropped the
 * second `valid` / `violations` copy of the same answer).
 */
export function checkOverrideHandler(deps: ApiDeps): Handler<{ body: typeof checkOverrideBody }> {
  return async (ctx) => {
    const { oldConfig, newConfig } = ctx.state.body;
    ctx.body = checkOverride(oldConfig, newConfig, nowSeconds(deps));
  };
}

/**
 * GET /v4/overrides/{id}/previous-configs: every configuration the campaign had before its current
 * one (creation, then each override but the latest), oldest first; 404 when the campaign is
 * unknown or hidden from the caller. Tables campaigns, campaign_privacy, campaign_overrides, opportunities, tokens, chains.
 */
export function previousConfigsHandler(deps: ApiDeps): Handler<{ params: typeof previousConfigsParams }> {
  return async (ctx) => {
    const { id } = ctx.state.params;
    const dbId = await resolveVisibleCampaignDbId(deps.pg, id, await campaignVisibilityOf(deps, ctx.state, true));
    if (!dbId) throw new NotFoundError(`Campaign ${id} not found`);
    ctx.body = previousConfigs(await loadCampaignVersions(deps.pg, dbId));
  };
}
