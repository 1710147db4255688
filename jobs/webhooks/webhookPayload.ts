import { signWebhook } from '../../domain/webhookSignature.js';
import type { EventResponse } from '../../domain/eventLog/serializeEvent.js';

/**
 * Pure: the body and headers of one delivery (Standard Webhooks): `webhook-id` is the event id, so
 * a receiver deduplicates on it; the body carries it too (`data.id`). `now` is the attempt's time
 * (Unix seconds): the signature covers it, so a captured delivery cannot be replayed after the
 * receiver's tolerance window.
 */
export function webhookPayload(
  event: EventResponse,
  secret: string,
  now: number,
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({ type: event.type, timestamp: event.createdAt, data: event });
  return {
    body,
    headers: {
      'webhook-id': event.id,
      'webhook-timestamp': String(now),
      'webhook-signature': signWebhook({ secret, id: event.id, timestamp: now, body }),
      'user-agent': 'rewards-webhooks/1',
    },
  };
}
