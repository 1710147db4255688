import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerRpcBody, forwardRpcCall, type RpcCall } from './jsonRpcCalls.js';

export type FlakyRpcProxy = {
  /** JSON-RPC endpoint forwarding to the devnet. */
  url: string;
  /** Answers the next `count` requests with HTTP `status` instead of forwarding them. */
  failNext(count: number, status?: number): void;
  /** Holds the next `count` requests for `ms` before forwarding them (client timeouts). */
  delayNext(count: number, ms: number): void;
  /** Refuses eth_getLogs over more than `blocks` blocks, as hosted nodes do (null: no limit). */
  limitLogRange(blocks: number | null): void;
  /** Stops failing (drops the queued failures and delays). */
  heal(): void;
  /** Requests received, failed or forwarded. */
  requests(): number;
  /** eth_getLogs calls seen, with their block span, refused or not. */
  getLogsCalls(): { span: number; refused: boolean }[];
  close(): Promise<void>;
};

/** A real local HTTP proxy in front of a devnet RPC that can fail on demand (RPC fault tests). */
export async function startFlakyRpcProxy(target: string): Promise<FlakyRpcProxy> {
  let failures: number[] = [];
  let delays: number[] = [];
  let maxSpan: number | null = null;
  let count = 0;
  const logsCalls: { span: number; refused: boolean }[] = [];
  const spanOf = (call: RpcCall) => {
    const filter = (call.params?.[0] ?? {}) as { fromBlock?: string; toBlock?: string };
    return filter.fromBlock && filter.toBlock ? Number(BigInt(filter.toBlock) - BigInt(filter.fromBlock)) + 1 : 0;
  };
  /** Answers one call: a range refusal for a too-wide getLogs, else the upstream answer. */
  const answer = async (call: RpcCall): Promise<unknown> => {
    if (call.method === 'eth_getLogs') {
      const span = spanOf(call);
      const refused = maxSpan !== null && span > maxSpan;
      logsCalls.push({ span, refused });
      if (refused)
        return {
          jsonrpc: '2.0',
          id: call.id,
          error: { code: -32005, message: `query exceeds the block range limit of ${maxSpan}` },
        };
    }
    return forwardRpcCall(target, call);
  };
  const server: Server = createServer((req, res) => {
    count += 1;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = failures.shift();
      if (status !== undefined) return void res.writeHead(status, { 'content-type': 'text/plain' }).end('unavailable');
      const delay = delays.shift() ?? 0;
      setTimeout(() => {
        answerRpcBody(Buffer.concat(chunks).toString('utf8'), answer)
          .then((out) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out)))
          .catch(() => res.writeHead(502).end());
      }, delay);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    failNext: (n, status = 503) => void failures.push(...Array<number>(n).fill(status)),
    delayNext: (n, ms) => void delays.push(...Array<number>(n).fill(ms)),
    limitLogRange: (blocks) => void (maxSpan = blocks),
    heal: () => void ((failures = []), (delays = [])),
    requests: () => count,
    getLogsCalls: () => [...logsCalls],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
