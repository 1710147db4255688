import { OPPORTUNITY_ACTIONS } from '../../../domain/campaignTypes.js';
import { fields, type InputOf } from '../../validate.js';

/** GET /v4/templates query (docs/api-behaviour.md#templates). */
export const listTemplatesQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    protocolId: { type: 'string', minLength: 1, maxLength: 100 },
    search: { type: 'string', minLength: 1, maxLength: 100 },
    action: { type: 'array', items: { type: 'string', enum: OPPORTUNITY_ACTIONS }, minItems: 1 },
    page: fields.page,
    items: fields.items,
  },
} as const;

export type ListTemplatesQuery = InputOf<typeof listTemplatesQuery>;

/** A template id: a built-in's slug, an operator's given slug, or the UUID generated for it. */
export const TEMPLATE_ID = {
  type: 'string',
  pattern: '^[a-z0-9][a-z0-9-]{0,63}$',
  'x-accepts': 'a lower-case slug or UUID (up to 64 characters)',
} as const;

/** GET, PATCH, PUT and DELETE /v4/templates/{id}. */
export const templateIdParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: TEMPLATE_ID },
} as const;
