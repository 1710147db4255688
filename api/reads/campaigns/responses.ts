import { campaignSchema, campaignWithOpportunitySchema } from '../../openapi/records.js';
import { any, arr, bool, decimal, hex, int, nullable, num, obj, str, stringMap } from '../../openapi/schemaHelpers.js';

/** GET /campaigns: campaigns, with their light opportunity when `withOpportunity=true`. */
export const campaignListSchema = arr({ anyOf: [campaignWithOpportunitySchema, campaignSchema] });
export const campaignIdsSchema = arr(str);

/** GET /campaigns/{id}: the campaign with its reallocations (CampaignReallocation logs: moved addresses and recipient). */
export const campaignByIdSchema = {
  allOf: [
    campaignSchema,
    obj({ reallocations: arr(obj({ from: arr(str), to: str, txHash: str, blockNumber: int, timestamp: int })) }),
  ],
};

const series = (value: string, extra: Record<string, typeof num> = {}) =>
  arr(obj({ timestamp: { type: ['number', 'string'] }, [value]: num, ...extra }));
/** GET /campaigns/{id}/metrics. */
export const campaignMetricsSchema = obj({
  tvlRecords: series('total'),
  aprRecords: series('apr'),
  dailyRewardsRecords: series('total', { totalInToken: num }),
  walletCount: series('walletCount'),
  tvlInflowPerDollar: nullable(num),
});

/** GET /campaigns/{id}/linked: the campaign's family, each node with its campaign (as by id) when `campaigns=true`. */
export const linkedCampaignsSchema = arr(
  obj(
    {
      campaignId: str,
      parentCampaignId: nullable(str),
      onChainCampaignId: str,
      distributionChainId: int,
      computeChainId: int,
      type: str,
      startTimestamp: decimal,
      endTimestamp: decimal,
      depth: int,
      self: bool,
      campaign: nullable(campaignByIdSchema),
    },
    ['campaign'],
  ),
);

/** POST /campaigns/generate-payload: the createCampaigns transaction, its approval and a Safe batch. */
export const generatePayloadSchema = obj(
  {
    chainId: int,
    distributionCreator: str,
    to: str,
    data: hex,
    value: str,
    approval: obj({ token: str, spender: str, amount: decimal, currentAllowance: nullable(decimal), sufficient: bool }),
    campaigns: arr({ type: 'object' }),
    safe: { type: 'object' },
    simulation: obj({ performed: bool, assumedApproval: bool, reason: str }, ['assumedApproval', 'reason']),
    params: any,
  },
  ['params'],
);

/** GET /campaigns/count: a bare number, or `{ "YYYY-MM": count }` with `grain=month`. */
export const campaignCountSchema = { anyOf: [{ type: 'integer', minimum: 0 }, stringMap(int)] };
/** GET /campaigns/count/by-…: `{ key: count }`, or `{ "YYYY-MM": { key: count } }` with `grain=month`. */
export const campaignCountsByKeySchema = stringMap({ anyOf: [int, stringMap(int)] });
