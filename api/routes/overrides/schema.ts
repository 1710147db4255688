import { fields } from '../../validate.js';

/** POST /v4/overrides/check body: exactly `oldConfig` and `newConfig`, both configuration objects. */
export const checkOverrideBody = {
  type: 'object',
  additionalProperties: false,
  required: ['oldConfig', 'newConfig'],
  properties: { oldConfig: { type: 'object' }, newConfig: { type: 'object' } },
} as const;

/** GET /v4/overrides/{id}/previous-configs: internal campaign id or `chainId-0x<campaignId>`. */
export const previousConfigsParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: {
      type: 'string',
      pattern: `^([0-9]{1,20}|0*${fields.int32Pattern}-0x[0-9a-fA-F]{64})$`,
      'x-accepts': fields.campaignIdAccepts,
    },
  },
} as const;
