import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FlakyRpcProxy = {
  /** JSON-RPC endpoint forwarding to the devnet. */
  url: string;
  /** Answers the next `count` requests with HTTP `status` instead of forwarding them. */
  failNext(count: number, status?: number): void;
  /** Stops failing (drops the queued failures). */
  heal(): void;
  /** Requests received, failed or forwarded. */
  requests(): number;
  close(): Promise<void>;
};

/** A real local HTTP proxy in front of a devnet RPC that can fail on demand (RPC fault tests). */
export async function startFlakyRpcProxy(target: string): Promise<FlakyRpcProxy> {
  let failures: number[] = [];
  let count = 0;
  const server: Server = createServer((req, res) => {
    count += 1;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = failures.shift();
      if (status !== undefined) return void res.writeHead(status, { 'content-type': 'text/plain' }).end('unavailable');
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) })
        .then(async (upstream) => res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text()))
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    failNext: (n, status = 503) => void failures.push(...Array<number>(n).fill(status)),
    heal: () => void (failures = []),
    requests: () => count,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
