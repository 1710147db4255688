import { fields, type InputOf } from '../../validate.js';
import { listCampaignsQuery } from '../campaigns/schema.js';

const campaignIdList = {
  type: 'array',
  minItems: 1,
  maxItems: 100,
  items: { type: 'string', pattern: '^0x[0-9a-fA-F]{64}(,0x[0-9a-fA-F]{64})*$', maxLength: 6600 },
} as const;

/** GET /v4/rewards/total and /count: `chainId` and one of `campaignId` or `token` (checked by the handler, naming the field). */
export const rewardTotalsQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId'],
  properties: { chainId: fields.chainId, campaignId: fields.bytes32, token: fields.address },
} as const;
export type RewardTotalsQuery = InputOf<typeof rewardTotalsQuery>;

/** Path of GET /v4/rewards/campaign/{campaignId}/total and /count (hosted spelling). */
export const campaignTotalsParams = {
  type: 'object',
  additionalProperties: false,
  required: ['campaignId'],
  properties: { campaignId: fields.bytes32 },
} as const;

/** Query of the routes addressed by a campaign in the path: its distribution chain. */
export const chainOnlyQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId'],
  properties: { chainId: fields.chainId },
} as const;

/** GET /v4/rewards/token/total and /count (hosted spelling): the token is `address`. */
export const tokenTotalsQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId', 'address'],
  properties: { chainId: fields.chainId, address: fields.address },
} as const;

/** GET /v4/rewards/unclaim: `chainId` and `campaignIds` (repeated or comma list, as hosted) or `token`. */
export const unclaimQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId'],
  properties: { chainId: fields.chainId, campaignIds: campaignIdList, token: fields.address },
} as const;
export type UnclaimQuery = InputOf<typeof unclaimQuery>;

/** Date, date-time string or Unix seconds/milliseconds (parseCreatedBound, as the campaign filters' created bounds). */
const instant = { type: 'string', minLength: 1, maxLength: 64 } as const;

const { page: _page, items: _items, ...campaignFilters } = listCampaignsQuery.properties;

/**
 * GET /v4/rewards/total/distributed (+ /by-chains, /by-types, /by-protocols, /by-tokens): the
 * window (`from`, `to`, hosted `since` = `from`), `grain=month` for a series, and every campaign
 * filter of GET /v4/campaigns (parsed by its own toListParams).
 */
export const distributedQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...campaignFilters,
    from: instant,
    to: instant,
    since: instant,
    grain: { type: 'string', enum: ['month'] },
  },
} as const;
export type DistributedQuery = InputOf<typeof distributedQuery>;

const { grain: _grain, ...windowAndFilters } = distributedQuery.properties;

/**
 * GET /v4/rewards/total/distributed/by-opportunities: the window and campaign filters of
 * /distributed (no `grain`: one figure per opportunity), `items` the size of the top (1..100).
 */
export const distributedOpportunitiesQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { ...windowAndFilters, items: { ...fields.items, default: 10 } },
} as const;
export type DistributedOpportunitiesQuery = InputOf<typeof distributedOpportunitiesQuery>;
