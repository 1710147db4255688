import { fields } from '../../validate.js';

export const listChainsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    test: { ...fields.boolean, default: false },
  },
} as const;
