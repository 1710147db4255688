import Router from '@koa/router';
import { describe } from '../../openapi/describe.js';
import { arr, obj, str } from '../../openapi/schemaHelpers.js';
import type { ApiDeps } from '../../deps.js';
import type { AuthState } from '../../identity/types.js';
import { requireCredential } from '../../middleware/auth.js';
import { validate } from '../../validate.js';
import { createOrganizationHandler, listOrganizationsHandler } from './handlers.js';
import { createOrganizationBody, noQuery } from './schema.js';

const organizationSchema = obj({ id: str, name: str, ownerAddress: str, createdAt: str });

/**
 * Organizations (POST /v4/organizations, a name of 1–128 characters): created by a wallet session
 * or an API key, owned by that wallet; `GET /organizations` lists the caller's. A name the caller
 * already uses (any case) is 409. Success is 200 (errors: docs/api-behaviour.md#errors). Tables: organizations.
 */
export function organizationsRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  router.post(
    '/organizations',
    describe({
      summary: 'Create an organization owned by the caller',
      description: 'Creates an organization owned by the caller; names are unique per owner (409).',
      response: organizationSchema,
      errors: [409],
    }),
    requireCredential,
    validate({ body: createOrganizationBody }),
    createOrganizationHandler(deps),
  );
  router.get(
    '/organizations',
    describe({
      summary: "The caller's organizations",
      description: 'The organizations the caller owns.',
      response: arr(organizationSchema),
    }),
    requireCredential,
    validate({ query: noQuery }),
    listOrganizationsHandler(deps),
  );
  return router;
}
