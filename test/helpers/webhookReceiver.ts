import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export type ReceivedDelivery = { headers: http.IncomingHttpHeaders; body: string; at: number };

export type WebhookReceiver = {
  url: string;
  /** Every request, in arrival order (retries and duplicates included). */
  received: ReceivedDelivery[];
  /** Event ids accepted (2xx) once each, in order: what a deduplicating receiver keeps. */
  accepted: string[];
  /** How many times a `webhook-id` was answered 2xx after it had been accepted already. */
  duplicates(): number;
  /** The status the next requests get (200 by default). */
  answer(status: number): void;
  /** Stops listening (connections are refused) until `up`, which listens on the same port again. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
};

/**
 * A real HTTP receiver on 127.0.0.1 (the tests allow loopback explicitly: WEBHOOKS_ALLOW_PRIVATE),
 * deduplicating on `webhook-id` as integrators are told to.
 */
export async function startWebhookReceiver({ delayMs = 0 }: { delayMs?: number } = {}): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const accepted: string[] = [];
  let dupes = 0;
  let status = 200;
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body, at: Date.now() });
      const id = String(req.headers['webhook-id']);
      if (status >= 200 && status < 300) {
        if (accepted.includes(id)) dupes += 1;
        else accepted.push(id);
      }
      // `delayMs`: a slow receiver, so that a delivery is in flight more of the time.
      if (delayMs) setTimeout(() => res.writeHead(status).end(), delayMs);
      else res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const stop = async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    accepted,
    duplicates: () => dupes,
    answer: (s) => (status = s),
    down: stop,
    up: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close: async () => {
      if (server.listening) await stop();
    },
  };
}
