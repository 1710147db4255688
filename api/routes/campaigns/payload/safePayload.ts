import type { PlannedCampaign } from './buildCampaigns.js';

const CAMPAIGN_COMPONENTS = [
  { name: 'campaignId', type: 'bytes32', internalType: 'bytes32' },
  { name: 'creator', type: 'address', internalType: 'address' },
  { name: 'rewardToken', type: 'address', internalType: 'address' },
  { name: 'amount', type: 'uint256', internalType: 'uint256' },
  { name: 'campaignType', type: 'uint32', internalType: 'uint32' },
  { name: 'startTimestamp', type: 'uint32', internalType: 'uint32' },
  { name: 'duration', type: 'uint32', internalType: 'uint32' },
  { name: 'campaignData', type: 'bytes', internalType: 'bytes' },
];

/**
 * Pure: the same transactions as a Safe Transaction Builder batch (docs/api-behaviour.md#campaign-payloads): one ERC20
 * approval of the total, then one `createCampaign` per campaign with the tuple as a JSON string
 * in struct order (ids zero: the contract computes them; amount a string, uint32 fields numbers).
 */
export function toSafePayload(p: {
  chainId: number;
  distributionCreator: string;
  rewardToken: string;
  total: bigint;
  campaigns: PlannedCampaign[];
  createdAt: number;
}) {
  return {
    version: '1.0',
    chainId: String(p.chainId),
    createdAt: p.createdAt,
    meta: { name: 'Create reward campaigns', txBuilderVersion: '1.16.3' },
    transactions: [
      {
        to: p.rewardToken,
        value: '0',
        data: null,
        contractMethod: {
          inputs: [
            { name: 'spender', type: 'address', internalType: 'address' },
            { name: 'amount', type: 'uint256', internalType: 'uint256' },
          ],
          name: 'approve',
          payable: false,
        },
        contractInputsValues: { spender: p.distributionCreator, amount: p.total.toString() },
      },
      ...p.campaigns.map((c) => ({
        to: p.distributionCreator,
        value: '0',
        data: null,
        contractMethod: {
          inputs: [
            {
              name: 'newCampaign',
              type: 'tuple',
              internalType: 'struct CampaignParameters',
              components: CAMPAIGN_COMPONENTS,
            },
          ],
          name: 'createCampaign',
          payable: false,
        },
        contractInputsValues: {
          newCampaign: JSON.stringify([
            `0x${'0'.repeat(64)}`,
            c.creator,
            c.rewardToken,
            c.amount.toString(),
            c.campaignType,
            c.startTimestamp,
            c.duration,
            c.campaignData,
          ]),
        },
      })),
    ],
  };
}
