import type { DeliveryRow, WebhookRow } from './repo.js';

/** Public record of a webhook (README "Webhooks"); its secret is answered only on creation. */
export type WebhookResponse = {
  id: string;
  url: string;
  type: string | null;
  chainId: number | null;
  campaignId: string | null;
  opportunityId: string | null;
  address: string | null;
  creator: string | null;
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: string | null;
  lastEventId: string;
  consecutiveFailures: number;
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
};

/** Pure: a webhook row → its public record (`campaignId` the internal campaign id, as events name it). */
export function serializeWebhook(row: WebhookRow): WebhookResponse {
  return {
    id: row.id,
    url: row.url,
    type: row.types?.join(',') ?? null,
    chainId: row.chainId,
    campaignId: row.campaignDbId,
    opportunityId: row.opportunityId,
    address: row.address,
    creator: row.creator,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    lastEventId: row.lastEventId,
    consecutiveFailures: row.failures,
    nextAttemptAt: row.enabled ? row.nextAttemptAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Public record of one delivery attempt. */
export type DeliveryResponse = Omit<DeliveryRow, 'nextAttemptAt' | 'createdAt'> & {
  nextAttemptAt: string | null;
  createdAt: string;
};

/** Pure: a webhook_deliveries row → its public record. */
export function serializeDelivery(row: DeliveryRow): DeliveryResponse {
  return {
    id: row.id,
    eventId: row.eventId,
    attempt: row.attempt,
    delivered: row.delivered,
    statusCode: row.statusCode,
    error: row.error,
    durationMs: row.durationMs,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
