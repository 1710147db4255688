import Router from '@koa/router';
import { describe } from '../../openapi/describe.js';
import { arr, obj, str } from '../../openapi/schemaHelpers.js';
import type { ApiDeps } from '../../deps.js';
import { AppError } from '../../errors.js';
import type { AuthState } from '../../identity/types.js';
import { requireCredential } from '../../middleware/auth.js';
import { validate } from '../../validate.js';
import { withTransaction as inWriteTransaction } from '../../../internal/pg.js';

type OrganizationRow = { id: string; name: string; owner_address: string; created_at: Date };

const createBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1, maxLength: 128, pattern: '\\S' } },
} as const;
const none = { type: 'object', additionalProperties: false, properties: {} } as const;
const organizationSchema = obj({ id: str, name: str, ownerAddress: str, createdAt: str });
const serialize = (r: OrganizationRow) => ({
  id: r.id,
  name: r.name,
  ownerAddress: r.owner_address,
  createdAt: r.created_at.toISOString(),
});

/**
 * Organizations (spec: POST /v4/organizations, name 1–128 characters): created by a wallet session
 * or an API key, owned by that wallet; `GET /organizations` lists the caller's. A name the caller
 * already uses (any case) is 409. Success is 200 (spec: Errors). Tables: organizations.
 */
export function organizationsRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  router.post(
    '/organizations',
    describe({ summary: 'Create an organization owned by the caller', response: organizationSchema, errors: [409] }),
    requireCredential,
    validate({ body: createBody }),
    async (ctx) => {
      const { name } = ctx.state['body'] as { name: string };
      const owner = ctx.state.auth!.address.toLowerCase();
      const row = await inWriteTransaction(
        deps.pg,
        async (tx) =>
          (
            await tx.query<OrganizationRow>(
              'INSERT INTO organizations (name, owner_address) VALUES ($1, $2) ON CONFLICT (owner_address, lower(name)) DO NOTHING RETURNING *',
              [name, owner],
            )
          ).rows[0],
      );
      if (!row) throw new AppError(409, 'CONFLICT', `You already have an organization named ${name}`);
      ctx.body = serialize(row);
    },
  );
  router.get(
    '/organizations',
    describe({ summary: "The caller's organizations", response: arr(organizationSchema) }),
    requireCredential,
    validate({ query: none }),
    async (ctx) => {
      const { rows } = await deps.pg.query<OrganizationRow>(
        'SELECT * FROM organizations WHERE owner_address = $1 ORDER BY created_at, id',
        [ctx.state.auth!.address.toLowerCase()],
      );
      ctx.body = rows.map(serialize);
    },
  );
  return router;
}
