import { fields, type InputOf } from '../../../validate.js';
import { campaignsParamsDescription } from './campaignsParamsDoc.js';
const ADDRESS = fields.address;
const UINT = { type: 'integer', minimum: 0, maximum: 2 ** 32 - 1 } as const;

/** Body of POST /v4/campaigns/generate-payload (the route's OpenAPI request body; numbers may arrive as numeric strings). */
export const generatePayloadBody = {
  type: 'object',
  additionalProperties: false,
  required: [
    'creatorAddress',
    'rewardToken',
    'distributionChainId',
    'startTimestamp',
    'endTimestamp',
    'campaignsParams',
  ],
  properties: {
    creatorAddress: ADDRESS,
    rewardToken: ADDRESS,
    distributionChainId: { type: 'integer', minimum: 0, default: 0 },
    startTimestamp: { ...UINT, default: 0 },
    endTimestamp: { ...UINT, default: 0 },
    campaignsParams: {
      type: 'object',
      description: campaignsParamsDescription(),
      examples: [
        {
          ERC20: [
            {
              amount: '1000000000000000000000',
              targetToken: '0x7ceB23fD6bC0adD59E62ac25578270cFf1b9f619',
              distributionMethodParameters: { distributionMethod: 'DUTCH_AUCTION' },
            },
          ],
        },
      ],
      minProperties: 1,
      maxProperties: 20,
      additionalProperties: {
        type: 'array',
        minItems: 1,
        maxItems: 100,
        items: {
          type: 'object',
          required: ['amount'],
          properties: { amount: { type: 'string', pattern: '^[0-9]{1,78}$' } },
          additionalProperties: true,
        },
      },
    },
  },
} as const;

export type GeneratePayloadBody = InputOf<typeof generatePayloadBody>;
