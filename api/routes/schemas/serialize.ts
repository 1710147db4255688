import type { SchemaGroup } from '../../../domain/campaignData/schemas.js';

/** Pure: a schema group → `{ name, description, enum, schemas }` (enum value → JSON Schema, draft 2020-12). */
export function serializeSchemaGroup(g: SchemaGroup) {
  return { name: g.name, description: g.description, enum: [...g.values], schemas: g.schemas };
}
