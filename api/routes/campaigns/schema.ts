import { fields } from '../../validate.js';

export const CAMPAIGN_STATUSES = ['LIVE', 'PAST', 'SOON'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** GET /v4/campaigns query (foundation slice: paging, compute chain, status). */
export const listCampaignsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: fields.page,
    items: fields.items,
    chainId: fields.chainId,
    status: fields.commaList(CAMPAIGN_STATUSES),
  },
} as const;

export type ListCampaignsQuery = { page: number; items: number; chainId?: number; status?: string };
