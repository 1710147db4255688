import { fields } from '../../validate.js';
import { campaignRefParams } from '../../reads/campaigns/schema.js';

type IdString = { readonly type: 'string'; readonly minLength: 1; readonly maxLength: 200 };
const idParams = <const N extends string>(name: N) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: [name],
    properties: { [name]: { type: 'string', minLength: 1, maxLength: 200 } } as { [K in N]: IdString },
  }) as const;

/**
 * Path of /campaign/{campaignId}: as the other campaign by-id routes (internal id,
 * `distributionChainId-campaignId` or the on-chain id alone), resolved to a visible campaign by the handler.
 */
export const campaignIdParams = {
  type: 'object',
  additionalProperties: false,
  required: ['campaignId'],
  properties: { campaignId: campaignRefParams.properties.id },
} as const;
/** Path of /opportunity/{id}: 1 to 200 characters, an opportunity id (resolveOpportunityId). */
export const opportunityIdParams = idParams('id');

/** Query of /opportunity/{id}: the anchor (required), the time to compute at and the period (Unix seconds). */
export const opportunityQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['anchor'],
  properties: {
    anchor: fields.unixSeconds,
    at: fields.unixSeconds,
    period: { type: 'integer', minimum: 3600, maximum: 365 * 86_400 },
  },
} as const;
