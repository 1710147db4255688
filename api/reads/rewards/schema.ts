import { fields, type InputOf } from '../../validate.js';

/** GET /v4/rewards query (docs/api-behaviour.md#reward-recipients); `campaignId` is the on-chain id. */
export const listRewardsQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId', 'campaignId'],
  properties: {
    chainId: fields.chainId,
    campaignId: fields.bytes32,
    hide: { ...fields.boolean, default: false },
    page: fields.page,
    items: fields.items,
  },
} as const;

export type ListRewardsQuery = InputOf<typeof listRewardsQuery>;
