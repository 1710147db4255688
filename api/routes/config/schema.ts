import { fields } from '../../validate.js';

/** GET /v4/config/hash/{hash}: a `0x` SHA-256 hex digest as returned by POST /v4/config/store. */
export const configHashParams = {
  type: 'object',
  additionalProperties: false,
  required: ['hash'],
  properties: { hash: fields.bytes32 },
} as const;

/**
 * GET /v4/config/hash/{hash} query: `campaignId` (on-chain 0x id, or the decimal id of a forwarding
 * sub-campaign) and `distributionChainId`, given together to associate the configuration.
 */
export const configHashQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    campaignId: { type: 'string', pattern: '^(0x[0-9a-fA-F]{64}|[0-9]{1,78})$' },
    distributionChainId: fields.chainId,
  },
} as const;

/** POST /v4/config/decode/args/createCampaign body: the distribution chain and the call's arguments (any shape; see decodeCreateCampaignArgs). */
export const decodeArgsBody = {
  type: 'object',
  additionalProperties: false,
  required: ['distributionChainId', 'args'],
  properties: { distributionChainId: fields.chainId, args: {} },
} as const;

/** POST /v4/config/store body: a free-form, non-empty configuration object (size and emptiness checked by the handler). */
export const storeConfigBody = {
  type: 'object',
  description: 'Free-form campaign configuration, non-empty, at most 16,384 bytes of canonical JSON',
} as const;
