import http, { type IncomingMessage } from 'node:http';
import { eventually } from './eventually.js';

export type SseMessage = { id?: string; event?: string; data?: string; comment?: string };

/** A Server-Sent Events client on a real socket: messages as they arrive, and the raw request to pause or end. */
export function openStream(port: number, path: string, headers: Record<string, string> = {}) {
  const messages: SseMessage[] = [];
  let buffer = '';
  let status = 0;
  let ended = false;
  let res: IncomingMessage | null = null;
  const req = http.get({ port, path, headers: { accept: 'text/event-stream', ...headers } });
  const ready = new Promise<void>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (r) => {
      res = r;
      status = r.statusCode ?? 0;
      r.setEncoding('utf8');
      r.on('data', (chunk: string) => {
        buffer += chunk;
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const m: SseMessage = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) m.comment = line.slice(1).trim();
            else {
              const i = line.indexOf(':');
              const key = line.slice(0, i) as 'id' | 'event' | 'data';
              if (['id', 'event', 'data'].includes(key)) m[key] = line.slice(i + 1).trim();
            }
          }
          messages.push(m);
        }
      });
      r.on('end', () => (ended = true));
      r.on('error', () => (ended = true));
      resolve();
    });
  });
  return {
    messages,
    ready,
    get status() {
      return status;
    },
    get ended() {
      return ended;
    },
    get res() {
      return res;
    },
    events: () => messages.filter((m) => m.id !== undefined),
    close: () => req.destroy(),
  };
}

/** Resolves with the time waited once `check` holds; throws naming `what` after `timeoutMs`. */
export async function until(what: string, check: () => boolean, timeoutMs = 5000): Promise<number> {
  const t0 = Date.now();
  await eventually(check, { timeoutMs, intervalMs: 10, what });
  return Date.now() - t0;
}
