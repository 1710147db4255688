import { fields } from '../../validate.js';

export const CREATOR_CAMPAIGN_STATUSES = ['PAST', 'LIVE', 'FUTURE'] as const;
export type CreatorCampaignStatus = (typeof CREATOR_CAMPAIGN_STATUSES)[number];

/** GET /v4/creators query. */
export const listCreatorsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 64 },
    address: fields.address,
    search: { type: 'string', minLength: 1, maxLength: 100 },
    page: fields.page,
    items: fields.items,
  },
} as const;

/** Path `{creator}`: a slug or an address (an implicit creator's id is its address). */
export const creatorParams = {
  type: 'object',
  additionalProperties: false,
  required: ['creator'],
  properties: {
    creator: {
      type: 'string',
      pattern: '^([a-zA-Z0-9][a-zA-Z0-9-]{0,63}|0x[0-9a-fA-F]{40})$',
      'x-accepts': 'a creator id or slug (letters, digits and -, up to 64) or a 20-byte hex address',
    },
  },
} as const;

/** GET /v4/creators/{creator}/dashboard query: `test` includes campaigns on test chains. */
export const dashboardQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { test: { ...fields.boolean, default: false } },
} as const;

/** GET /v4/creators/{creator}/campaigns query (PAST, LIVE, FUTURE: docs/api-behaviour.md#creator-campaign-status). */
export const creatorCampaignsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { status: { type: 'string', enum: CREATOR_CAMPAIGN_STATUSES } },
} as const;
