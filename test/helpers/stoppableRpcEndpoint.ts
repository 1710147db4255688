import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type StoppableRpcEndpoint = {
  /** JSON-RPC URL (fixed port: the same before and after a restart). */
  url: string;
  /** Closes the port and drops open connections, as a node going down does (clients get ECONNREFUSED). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
};

/**
 * An RPC endpoint in front of a devnet that can be stopped and restarted on the same port. A
 * Hardhat node loses its chain when its process stops, so stopping this forwarder stands in for
 * "the RPC node is down" while the devnet behind it keeps its state (and keeps mining).
 */
export async function startStoppableRpcEndpoint(target: string): Promise<StoppableRpcEndpoint> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) })
        .then(async (upstream) =>
          res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text()),
        )
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    start: () =>
      new Promise<void>((resolve, reject) =>
        server.once('error', reject).listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        }),
      ),
  };
}
