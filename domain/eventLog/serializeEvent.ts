import type { EventRow } from './readEvents.js';

/** Public event record of GET /v4/events and of webhook deliveries (README "Events"). */
export type EventResponse = {
  id: string;
  type: string;
  chainId: number | null;
  campaignId: string | null;
  opportunityId: string | null;
  address: string | null;
  root: string | null;
  blockNumber: number | null;
  retracted: boolean;
  payload: Record<string, unknown>;
  createdAt: string;
};

/** Pure: an events row → its public record (`campaignId` is the internal campaign id). */
export function serializeEvent(row: EventRow): EventResponse {
  return {
    id: row.id,
    type: row.type,
    chainId: row.chain_id,
    campaignId: row.campaign_db_id,
    opportunityId: row.opportunity_id,
    address: row.address,
    root: row.root,
    blockNumber: row.block_number === null ? null : Number(row.block_number),
    retracted: row.retracted,
    payload: row.payload,
    createdAt: row.created_at.toISOString(),
  };
}
