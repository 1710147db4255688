import { campaignIdParams } from '../campaigns/schema.js';
import Router from '@koa/router';
import { describe } from '../../openapi/describe.js';
import { arr, bool, nullable, obj, str } from '../../openapi/schemaHelpers.js';
import type { ApiDeps } from '../../deps.js';
import { AppError, NotFoundError } from '../../errors.js';
import { indexNames } from '../../../internal/es.js';
import type { AuthState } from '../../identity/types.js';
import { requireCredentialOrBackOffice } from '../../middleware/auth.js';
import { fields, validate } from '../../validate.js';
import * as repo from './repo.js';
import { refreshOpportunityNow } from '../../../jobs/control/refreshOpportunity.js';
import { describeError } from '../../../internal/errors.js';
import { updateDocumentNow } from '../../search/updateDocumentNow.js';

/** As the campaign by-id routes: the composite form's chain id is an int32 (a larger one was a 500 from PostgreSQL). */
const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 100, pattern: campaignIdParams.properties.id.pattern } },
} as const;
const grantBody = {
  type: 'object',
  additionalProperties: false,
  required: ['userAddress'],
  properties: { userAddress: fields.address, canManageAccess: { ...fields.boolean, default: false } },
} as const;
const privacyBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    isPrivate: fields.boolean,
    recipientsCanView: fields.boolean,
    authorizedAddresses: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['address'],
        properties: { address: fields.address, canManageAccess: { ...fields.boolean, default: false } },
      },
    },
  },
} as const;
const none = { type: 'object', additionalProperties: false, properties: {} } as const;

const grantSchema = obj({ userAddress: str, canManageAccess: bool, grantedBy: str, grantedAt: str });
const privacySchema = obj({
  isPrivate: bool,
  recipientsCanView: bool,
  authorizedAddresses: arr(obj({ address: str, canManageAccess: bool })),
  dynamicGrants: arr(grantSchema),
  updatedAt: nullable(str),
});
const messageSchema = obj({ success: bool, message: str });

type State = AuthState & {
  params: { id: string };
  body: { userAddress: string; canManageAccess: boolean } & repo.PrivacyUpdate;
};

const serializePrivacy = (p: repo.PrivacyRow, grants: repo.GrantRow[]) => ({
  isPrivate: p.is_private,
  recipientsCanView: p.recipients_can_view,
  authorizedAddresses: p.authorized,
  dynamicGrants: grants.map(serializeGrant),
  updatedAt: p.updated_at?.toISOString() ?? null,
});
const serializeGrant = (g: repo.GrantRow) => ({
  userAddress: g.user_address,
  canManageAccess: g.can_manage_access,
  grantedBy: g.granted_by,
  grantedAt: g.granted_at.toISOString(),
});

/**
 * Campaign privacy (docs/api-behaviour.md#campaign-privacy): the creator (wallet session or API key) or the back office
 * toggles privacy (`PATCH /campaigns/{id}/privacy`); the creator, addresses of the static list or
 * grantees with `canManageAccess`, and the back office inspect it and grant, revoke and list
 * dynamic grants. No credential is 401, any other caller 403, an unknown campaign 404.
 * Tables: campaigns, campaign_privacy, campaign_access_grants, search_outbox.
 */
export function campaignAccessRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<State>();
  const campaignIndex = indexNames(deps.config.esIndexPrefix, 'campaigns').write;

  /** The campaign, after checking the caller (past requireCredentialOrBackOffice) may act on it: 'creator' (privacy) or 'manager' (grants). */
  const authorize = async (state: State, role: 'creator' | 'manager'): Promise<repo.AccessCampaign> => {
    const campaign = await repo.loadAccessCampaign(deps.pg, state.params.id);
    if (!campaign) throw new NotFoundError(`No campaign ${state.params.id}`);
    if (state.backOffice) return campaign;
    const caller = state.auth!.address.toLowerCase();
    if (caller === campaign.creator) return campaign;
    if (role === 'manager') {
      const privacy = await repo.loadPrivacy(deps.pg, campaign.id);
      if (
        privacy.authorized.some((a) => a.address === caller && a.canManageAccess) ||
        (await repo.isGrantManager(deps.pg, campaign.id, caller))
      )
        return campaign;
    }
    throw new AppError(
      403,
      'FORBIDDEN',
      role === 'creator'
        ? 'Only the campaign creator or the back office may change its privacy'
        : 'Only the creator or an address with canManageAccess may manage access to this campaign',
    );
  };
  const actor = (state: State) => state.auth?.address.toLowerCase() ?? 'back-office';
  const signal = new AbortController().signal;
  /**
   * The opportunity is a public projection of its public campaigns: its figures and document are
   * rebuilt now (jobs/control/refreshOpportunity.ts), so the change reaches them before the answer.
   * Best effort: a failure (the node down for the TVL read) is logged, and the queued outbox entry
   * and the next metrics run bring them in line.
   */
  const refreshOpportunityOf = async (campaignDbId: string) => {
    const opportunityId = await repo.opportunityOf(deps.pg, campaignDbId);
    if (!opportunityId || !deps.jobsPg) return;
    await refreshOpportunityNow(
      { config: deps.config, logger: deps.logger, pg: deps.jobsPg, es: deps.es, rpc: deps.rpc, signal },
      opportunityId,
    ).catch((error: unknown) =>
      deps.logger.warn({
        msg: 'opportunity not refreshed after a privacy change; the next metrics run will',
        opportunity_id: opportunityId,
        err: describeError(error),
      }),
    );
  };

  router.patch(
    '/campaigns/:id/privacy',
    describe({
      summary: 'Change the privacy of a campaign (creator or back office)',
      response: privacySchema,
      errors: [401, 403, 404],
    }),
    requireCredentialOrBackOffice,
    validate({ params: idParams, body: privacyBody }),
    async (ctx) => {
      const campaign = await authorize(ctx.state, 'creator');
      const privacy = await repo.updatePrivacy(deps.pg, campaign.id, ctx.state.body, actor(ctx.state));
      // The outbox republishes the document; flipping the flag now closes the window before it runs.
      await updateDocumentNow(deps, {
        index: campaignIndex,
        id: campaign.id,
        doc: { isPrivate: privacy.is_private },
        what: 'privacy flag',
        mustReachReads: true,
      });
      await refreshOpportunityOf(campaign.id);
      const parent = await repo.parentWithPublicChildren(deps.pg, campaign.id);
      if (parent)
        await updateDocumentNow(deps, {
          index: campaignIndex,
          id: parent.id,
          doc: { childCampaignIds: parent.childCampaignIds },
          what: "parent's children",
          mustReachReads: true,
        });
      ctx.body = serializePrivacy(privacy, await repo.listGrants(deps.pg, campaign.id));
    },
  );
  router.get(
    '/campaigns/:id/privacy',
    describe({
      summary: 'Privacy settings and access grants of a campaign (creator, managers, back office)',
      response: privacySchema,
      errors: [401, 403, 404],
    }),
    requireCredentialOrBackOffice,
    validate({ params: idParams, query: none }),
    async (ctx) => {
      const campaign = await authorize(ctx.state, 'manager');
      const [privacy, grants] = await Promise.all([
        repo.loadPrivacy(deps.pg, campaign.id),
        repo.listGrants(deps.pg, campaign.id),
      ]);
      ctx.body = serializePrivacy(privacy, grants);
    },
  );
  router.post(
    '/campaigns/:id/access/grant',
    describe({ summary: 'Grant access to a private campaign', response: messageSchema, errors: [401, 403, 404] }),
    requireCredentialOrBackOffice,
    validate({ params: idParams, body: grantBody }),
    async (ctx) => {
      const campaign = await authorize(ctx.state, 'manager');
      const { userAddress, canManageAccess } = ctx.state.body;
      await repo.grantAccess(deps.pg, campaign.id, userAddress, canManageAccess, actor(ctx.state));
      ctx.body = {
        success: true,
        message: `Access to campaign ${campaign.id} granted to ${userAddress.toLowerCase()}${canManageAccess ? ' (may manage access)' : ''}`,
      };
    },
  );
  router.delete(
    '/campaigns/:id/access/revoke',
    describe({ summary: 'Revoke access to a private campaign', response: messageSchema, errors: [401, 403, 404] }),
    requireCredentialOrBackOffice,
    validate({ params: idParams, body: grantBody }),
    async (ctx) => {
      const campaign = await authorize(ctx.state, 'manager');
      const { userAddress } = ctx.state.body;
      if (!(await repo.revokeAccess(deps.pg, campaign.id, userAddress)))
        throw new NotFoundError(`${userAddress.toLowerCase()} has no active grant on campaign ${campaign.id}`);
      ctx.body = {
        success: true,
        message: `Access to campaign ${campaign.id} revoked for ${userAddress.toLowerCase()}`,
      };
    },
  );
  router.get(
    '/campaigns/:id/access/list',
    describe({
      summary: 'Active dynamic access grants of a campaign',
      response: obj({ dynamicGrants: arr(grantSchema) }),
      errors: [401, 403, 404],
    }),
    requireCredentialOrBackOffice,
    validate({ params: idParams, query: none }),
    async (ctx) => {
      const campaign = await authorize(ctx.state, 'manager');
      ctx.body = { dynamicGrants: (await repo.listGrants(deps.pg, campaign.id)).map(serializeGrant) };
    },
  );
  return router as unknown as Router<AuthState>;
}
