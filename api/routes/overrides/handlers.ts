import type { Context, Next } from 'koa';
import { resolveCampaignDbId } from '../../../indexer/store/campaignReads.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { NotFoundError } from '../../errors.js';
import { checkOverride } from './checkOverride.js';
import { loadCampaignVersions } from './repo.js';
import type { CheckOverrideBody, PreviousConfigsParams } from './schema.js';
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

/** POST /v4/overrides/check: `{ isValid, errors: [{ path, message }] }` per the spec's four override rules, as of now. */
export function checkOverrideHandler(deps: ApiDeps) {
  return async (ctx: Context): Promise<void> => {
    const { oldConfig, newConfig } = ctx.state.body as CheckOverrideBody;
    ctx.body = checkOverride(oldConfig, newConfig, nowSeconds(deps));
  };
}

/**
 * GET /v4/overrides/{id}/previous-configs: every configuration the campaign had before its current
 * one (creation, then each override but the latest), oldest first; 404 when the campaign is
 * unknown. Tables campaigns, campaign_overrides, opportunities, tokens, chains.
 */
export function previousConfigsHandler(deps: ApiDeps) {
  return async (ctx: Context): Promise<void> => {
    const { id } = ctx.state.params as PreviousConfigsParams;
    const dbId = await resolveCampaignDbId(deps.pg, id);
    if (!dbId) throw new NotFoundError(`Campaign ${id} not found`);
    ctx.body = previousConfigs(await loadCampaignVersions(deps.pg, dbId));
  };
}
