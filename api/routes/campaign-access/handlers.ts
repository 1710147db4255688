import { describeError } from '../../../internal/errors.js';
import { classifySourceError } from '../../../internal/errorSources/index.js';
import { askJobRunner } from '../../../domain/jobs/runRequests.js';
import { projectDocumentsNow } from '../../../domain/projection/projectDocumentsNow.js';
import { PublishError } from '../../../domain/projection/publish.js';
import type { ApiDeps } from '../../deps.js';
import { NotFoundError, ServiceUnavailableError } from '../../errors.js';
import type { Handler } from '../../validate.js';
import { actor, authorize } from './authorize.js';
import * as repo from '../../reads/campaign-access/repo.js';
import type { grantBody, idParams, none, privacyBody } from './schema.js';
import { serializeGrant, serializePrivacy } from './serialize.js';

/** How long a privacy change waits for its opportunity's refresh before answering anyway. */
export const REFRESH_WAIT_MS = 10_000;

/**
 * The opportunity is a public projection of its public campaigns: a job runner rebuilds its figures
 * and document now (a metrics request naming it, domain/jobs/runRequests.ts), and the answer waits
 * for that, at most REFRESH_WAIT_MS. Best effort: no runner listening, a failure (the node down for
 * the TVL read) or a slow refresh is logged, and the queued outbox entry and the next metrics run
 * bring them in line.
 */
async function refreshOpportunityOf(deps: ApiDeps, campaignDbId: string): Promise<void> {
  const opportunityId = await repo.opportunityOf(deps.pg, campaignDbId);
  const pg = deps.jobsPg;
  if (!opportunityId || !pg) return;
  const notRefreshed = (why: string, extra: Record<string, unknown> = {}) =>
    deps.logger.warn({
      msg: `opportunity not refreshed after a privacy change (${why}); the next metrics run will`,
      opportunity_id: opportunityId,
      ...extra,
    });
  try {
    const asked = await askJobRunner(pg, 'metrics', {
      params: { opportunityIds: [opportunityId] },
      waitMs: REFRESH_WAIT_MS,
    });
    if (!asked) return notRefreshed('no job runner listens');
    const { requestId, outcome } = asked;
    if (!outcome) return notRefreshed(`not done within ${REFRESH_WAIT_MS} ms`, { request_id: requestId });
    if (outcome.status === 'failed')
      return notRefreshed('the refresh failed', { request_id: requestId, error: outcome.error });
  } catch (error) {
    notRefreshed('the request could not be written', { err: describeError(error) });
  }
}

/**
 * The campaign documents a privacy change queued (the campaign's `isPrivate`, its parent's
 * `childCampaignIds`), published now through the projector (domain/projection/projectDocumentsNow.ts)
 * and refreshed, so searches serve the change before the request answers. If Elasticsearch cannot
 * take them the request fails (503, retried by the client) instead of leaving a window in which
 * searches still serve the old flag; the entries stay queued for the publish job.
 */
async function publishCampaignDocuments(deps: ApiDeps, ids: string[]): Promise<void> {
  await projectDocumentsNow(deps, 'campaign', ids).catch((error: unknown) => {
    if (error instanceof PublishError || classifySourceError(error)?.source === 'elasticsearch')
      throw new ServiceUnavailableError('elasticsearch', error);
    throw error;
  });
}

/** PATCH /v4/campaigns/{id}/privacy (creator or back office): the settings, then the documents and the opportunity follow at once. */
export function updatePrivacyHandler(deps: ApiDeps): Handler<{ params: typeof idParams; body: typeof privacyBody }> {
  return async (ctx) => {
    const campaign = await authorize(deps, ctx.state, 'creator');
    const { privacy, campaignDocuments } = await repo.updatePrivacy(
      deps.pg,
      campaign.id,
      ctx.state.body,
      actor(ctx.state),
    );
    await publishCampaignDocuments(deps, campaignDocuments);
    await refreshOpportunityOf(deps, campaign.id);
    ctx.body = serializePrivacy(privacy, await repo.listGrants(deps.pg, campaign.id));
  };
}

/** GET /v4/campaigns/{id}/privacy (creator, managers, back office). */
export function getPrivacyHandler(deps: ApiDeps): Handler<{ params: typeof idParams; query: typeof none }> {
  return async (ctx) => {
    const campaign = await authorize(deps, ctx.state, 'manager');
    const [privacy, grants] = await Promise.all([
      repo.loadPrivacy(deps.pg, campaign.id),
      repo.listGrants(deps.pg, campaign.id),
    ]);
    ctx.body = serializePrivacy(privacy, grants);
  };
}

/** POST /v4/campaigns/{id}/access/grant (managers). */
export function grantAccessHandler(deps: ApiDeps): Handler<{ params: typeof idParams; body: typeof grantBody }> {
  return async (ctx) => {
    const campaign = await authorize(deps, ctx.state, 'manager');
    const { userAddress, canManageAccess } = ctx.state.body;
    await repo.grantAccess(deps.pg, campaign.id, userAddress, canManageAccess, actor(ctx.state));
    ctx.body = {
      success: true,
      message: `Access to campaign ${campaign.id} granted to ${userAddress.toLowerCase()}${canManageAccess ? ' (may manage access)' : ''}`,
    };
  };
}

/** DELETE /v4/campaigns/{id}/access/revoke (managers): 404 when the address has no active grant. */
export function revokeAccessHandler(deps: ApiDeps): Handler<{ params: typeof idParams; body: typeof grantBody }> {
  return async (ctx) => {
    const campaign = await authorize(deps, ctx.state, 'manager');
    const { userAddress } = ctx.state.body;
    if (!(await repo.revokeAccess(deps.pg, campaign.id, userAddress)))
      throw new NotFoundError(`${userAddress.toLowerCase()} has no active grant on campaign ${campaign.id}`);
    ctx.body = {
      success: true,
      message: `Access to campaign ${campaign.id} revoked for ${userAddress.toLowerCase()}`,
    };
  };
}

/** GET /v4/campaigns/{id}/access/list (managers): the active dynamic grants. */
export function listGrantsHandler(deps: ApiDeps): Handler<{ params: typeof idParams; query: typeof none }> {
  return async (ctx) => {
    const campaign = await authorize(deps, ctx.state, 'manager');
    ctx.body = { dynamicGrants: (await repo.listGrants(deps.pg, campaign.id)).map(serializeGrant) };
  };
}
