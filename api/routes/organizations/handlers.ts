import type { Context } from 'koa';
import type { ApiDeps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { insertOrganization, listOrganizations } from './repo.js';
import { serializeOrganization } from './serialize.js';

/** POST /v4/organizations: an organization owned by the caller's wallet; a name it already uses (any case) is 409. */
export function createOrganizationHandler(deps: ApiDeps) {
  return async (ctx: Context): Promise<void> => {
    const { name } = ctx.state['body'] as { name: string };
    const owner = ctx.state.auth!.address.toLowerCase();
    const row = await insertOrganization(deps.pg, name, owner);
    if (!row) throw new AppError(409, 'CONFLICT', `You already have an organization named ${name}`);
    ctx.body = serializeOrganization(row);
  };
}

/** GET /v4/organizations: the caller's organizations, oldest first. */
export function listOrganizationsHandler(deps: ApiDeps) {
  return async (ctx: Context): Promise<void> => {
    const rows = await listOrganizations(deps.pg, ctx.state.auth!.address.toLowerCase());
    ctx.body = rows.map(serializeOrganization);
  };
}
