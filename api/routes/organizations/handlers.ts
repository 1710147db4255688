import type { ApiDeps } from '../../deps.js';
import { AppError } from '../../errors.js';
import type { Handler } from '../../validate.js';
import type { createOrganizationBody, noQuery } from './schema.js';
import { insertOrganization, listOrganizations } from './repo.js';
import { serializeOrganization } from './serialize.js';
import { PROBLEMS } from '../../problems/registry.js';

/** POST /v4/organizations: an organization owned by the caller's wallet; a name it already uses (any case) is 409. */
export function createOrganizationHandler(deps: ApiDeps): Handler<{ body: typeof createOrganizationBody }> {
  return async (ctx) => {
    const { name } = ctx.state.body;
    const owner = ctx.state.auth!.address.toLowerCase();
    const row = await insertOrganization(deps.pg, name, owner);
    if (!row) throw new AppError(PROBLEMS.CONFLICT, `You already have an organization named ${name}`);
    ctx.body = serializeOrganization(row);
  };
}

/** GET /v4/organizations: the caller's organizations, oldest first. */
export function listOrganizationsHandler(deps: ApiDeps): Handler<{ query: typeof noQuery }> {
  return async (ctx) => {
    const rows = await listOrganizations(deps.pg, ctx.state.auth!.address.toLowerCase());
    ctx.body = rows.map(serializeOrganization);
  };
}
