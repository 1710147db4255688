import Router from '@koa/router';
import { describe } from '../../openapi/describe.js';
import { arr, bool, nullable, obj, str } from '../../openapi/schemaHelpers.js';
import type { ApiDeps } from '../../deps.js';
import type { AuthState } from '../../identity/types.js';
import { requireCredentialOrBackOffice } from '../../middleware/auth.js';
import { validate } from '../../validate.js';
import {
  getPrivacyHandler,
  grantAccessHandler,
  listGrantsHandler,
  revokeAccessHandler,
  updatePrivacyHandler,
} from './handlers.js';
import { grantBody, idParams, none, privacyBody } from './schema.js';

const grantSchema = obj({ userAddress: str, canManageAccess: bool, grantedBy: str, grantedAt: str });
const privacySchema = obj({
  isPrivate: bool,
  recipientsCanView: bool,
  authorizedAddresses: arr(obj({ address: str, canManageAccess: bool })),
  dynamicGrants: arr(grantSchema),
  updatedAt: nullable(str),
});
const messageSchema = obj({ success: bool, message: str });

/**
 * Campaign privacy (docs/api-behaviour.md#campaign-privacy): the creator (wallet session or API key) or the back office
 * toggles privacy (`PATCH /campaigns/{id}/privacy`); the creator, addresses of the static list or
 * grantees with `canManageAccess`, and the back office inspect it and grant, revoke and list
 * dynamic grants. No credential is 401, any other caller 403, an unknown campaign 404.
 * Tables: campaigns, campaign_privacy, campaign_access_grants, search_outbox.
 */
export function campaignAccessRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  router.patch(
    '/campaigns/:id/privacy',
    describe({
      summary: 'Change the privacy of a campaign (creator or back office)',
      description:
        "Makes a campaign private or public. Only the campaign's creator (session or API key) or the back office may change it; a private campaign is served only to its creator, its grantees and the back office (`showPrivate=true`).",
      response: privacySchema,
      errors: [401, 403, 404],
    }),
    requireCredentialOrBackOffice,
    validate({ params: idParams, body: privacyBody }),
    updatePrivacyHandler(deps),
  );
  router.get(
    '/campaigns/:id/privacy',
    describe({
      summary: 'Privacy settings and access grants of a campaign (creator, managers, back office)',
      description:
        'Whether the campaign is private, and who was granted access. Readable by the creator, grantees with `canManageAccess`, and the back office.',
      response: privacySchema,
      errors: [401, 403, 404],
    }),
    requireCredentialOrBackOffice,
    validate({ params: idParams, query: none }),
    getPrivacyHandler(deps),
  );
  router.post(
    '/campaigns/:id/access/grant',
    describe({
      summary: 'Grant access to a private campaign',
      description:
        'Grants `userAddress` access to a private campaign; with `canManageAccess` the grantee may grant and revoke others. Allowed to the creator, grantees with `canManageAccess` and the back office. Granting again updates `canManageAccess`.',
      response: messageSchema,
      errors: [401, 403, 404],
    }),
    requireCredentialOrBackOffice,
    validate({ params: idParams, body: grantBody }),
    grantAccessHandler(deps),
  );
  router.delete(
    '/campaigns/:id/access/revoke',
    describe({
      summary: 'Revoke access to a private campaign',
      description:
        'Revokes the access of `userAddress` to a private campaign. Allowed to the creator, grantees with `canManageAccess` and the back office.',
      response: messageSchema,
      errors: [401, 403, 404],
    }),
    requireCredentialOrBackOffice,
    validate({ params: idParams, body: grantBody }),
    revokeAccessHandler(deps),
  );
  router.get(
    '/campaigns/:id/access/list',
    describe({
      summary: 'Active dynamic access grants of a campaign',
      description: 'The active access grants of a private campaign (address, who granted it, `canManageAccess`).',
      response: obj({ dynamicGrants: arr(grantSchema) }),
      errors: [401, 403, 404],
    }),
    requireCredentialOrBackOffice,
    validate({ params: idParams, query: none }),
    listGrantsHandler(deps),
  );
  return router;
}
