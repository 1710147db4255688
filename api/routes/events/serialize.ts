import type { EventResponse } from '../../../domain/eventLog/serializeEvent.js';

/** Pure: one Server-Sent Events message (`id`, `event`, one `data` line of JSON). */
export function toSseMessage(event: EventResponse): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** Pure: the `event: error` message that ends a stream, with its reason. */
export function toSseError(code: string, reason: string, extra: Record<string, unknown> = {}): string {
  return `event: error\ndata: ${JSON.stringify({ code, reason, ...extra })}\n\n`;
}
