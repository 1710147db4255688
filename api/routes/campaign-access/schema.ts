import { fields } from '../../validate.js';
import { campaignIdParams } from '../../reads/campaigns/schema.js';

/** As the campaign by-id routes: the composite form's chain id is an int32 (a larger one was a 500 from PostgreSQL). */
export const idParams = {
  type: 'object',
  required: ['id'],
  properties: {
    id: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      pattern: campaignIdParams.properties.id.pattern,
      'x-accepts': fields.campaignIdAccepts,
    },
  },
} as const;

/** POST /campaigns/{id}/access/grant and DELETE /campaigns/{id}/access/revoke body. */
export const grantBody = {
  type: 'object',
  additionalProperties: false,
  required: ['userAddress'],
  properties: { userAddress: fields.address, canManageAccess: { ...fields.boolean, default: false } },
} as const;

/** PATCH /campaigns/{id}/privacy body: at least one of the settings. */
export const privacyBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    isPrivate: fields.boolean,
    recipientsCanView: fields.boolean,
    authorizedAddresses: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['address'],
        properties: { address: fields.address, canManageAccess: { ...fields.boolean, default: false } },
      },
    },
  },
} as const;

/** No query parameters are accepted. */
export const none = { type: 'object', additionalProperties: false, properties: {} } as const;
