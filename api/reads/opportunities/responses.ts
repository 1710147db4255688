import { component } from '../../openapi/components.js';
import { campaignSchema, opportunitySchema } from '../../openapi/records.js';
import { arr, int, nullable, num, obj, str } from '../../openapi/schemaHelpers.js';

/** An opportunity with its campaigns (`campaigns=true`, and GET /opportunities/{id}/campaigns). */
export const opportunityWithCampaignsSchema = component('OpportunityWithCampaigns', {
  allOf: [
    opportunitySchema,
    { type: 'object', required: ['campaigns'], properties: { campaigns: arr(campaignSchema) } },
  ],
});

/** GET /opportunities: opportunities, each with its campaigns when `campaigns=true`. */
export const opportunityListSchema = arr({ anyOf: [opportunityWithCampaignsSchema, opportunitySchema] });
export const countSchema = { type: 'integer', minimum: 0 } as const;
export const binsSchema = obj({ data: arr(obj({ min: num, max: num, count: int })) });
/** Sum of a numeric field (`{ sum }`), or buckets of a grouping field. */
export const aggregateSchema = {
  anyOf: [obj({ sum: nullable(str) }), arr(obj({ key: str, count: int, tvl: num, dailyRewards: num }))],
};
export const extremumSchema = (kind: 'max' | 'min') => obj({ [kind]: nullable(str) });

/** One node of a storing-ids tree (shared by the campaign and opportunity routes). */
export const storingIdsNodeSchema = component('StoringIdsNode', {
  type: 'object',
  required: ['campaignId', 'storingIds', 'subCampaigns'],
  properties: {
    campaignId: str,
    storingIds: arr(str),
    subCampaigns: arr({ $ref: '#/components/schemas/StoringIdsNode' }),
  },
});

export type RecordsColumn = 'apr' | 'tvl' | 'dailyRewards';
/** History records; CSV with the same columns with `format=csv` or when Accept asks for text/csv. */
export const recordsSchema = (column: RecordsColumn) =>
  arr(
    obj({
      timestamp: str,
      date: str,
      [column]: {
        ...nullable(num),
        description:
          'Time-weighted mean over the bucket of the known values; null when none was known in the bucket (an unknown TVL, and so its APR, is never counted as 0: docs/api-behaviour.md#unknown-tvl; nor is an unknown native APR, whose nativeAprRecord.status was not `ok`: docs/api-behaviour.md#native-apr)',
      },
    }),
  );
