import type { Context } from 'koa';
import { SCHEMA_GROUPS } from '../../../domain/campaignData/schemas.js';
import { serializeSchemaGroup } from './serialize.js';

/** GET /v4/schemas (beta): every schema group of domain/campaignData/schemas.ts. */
export function listSchemaGroupsHandler() {
  return (ctx: Context): void => {
    ctx.body = SCHEMA_GROUPS.map(serializeSchemaGroup);
  };
}
