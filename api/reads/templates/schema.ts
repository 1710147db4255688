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
