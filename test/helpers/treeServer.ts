import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RewardTreeFile } from '../../indexer/decode/parseRewardTree.js';

export type TreeServer = {
  /** `http://127.0.0.1:<port>/trees/{chainId}/{root}.json`, the REWARD_TREE_SOURCE template. */
  urlTemplate: string;
  /** Serves `body` (a tree, or raw text) at `/trees/<chainId>/<root>.json`. */
  publish(chainId: number, root: string, body: RewardTreeFile | string): void;
  /** Answers the next `count` requests with `status` (e.g. 503 or 429) before serving normally. */
  failNext(count: number, status: number): void;
  /** Holds the next `count` responses for `ms` before answering (to trip client timeouts). */
  delayNext(count: number, ms: number): void;
  /** Paths requested so far, in order. */
  requests: string[];
  close(): Promise<void>;
};

/** A real local HTTP server publishing reward trees (external sources are real servers, never mocks). */
export async function startTreeServer(): Promise<TreeServer> {
  const files = new Map<string, string>();
  const requests: string[] = [];
  const failures: number[] = [];
  const delays: number[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    const respond = () => {
      const status = failures.shift();
      if (status !== undefined)
        return void res.writeHead(status, { 'content-type': 'text/plain' }).end(`failing with ${status}`);
      const body = files.get(path);
      if (body === undefined) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    };
    const delay = delays.shift();
    if (delay) setTimeout(respond, delay);
    else respond();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    urlTemplate: `http://127.0.0.1:${port}/trees/{chainId}/{root}.json`,
    publish: (chainId, root, body) =>
      void files.set(
        `/trees/${chainId}/${root.toLowerCase()}.json`,
        typeof body === 'string' ? body : JSON.stringify(body),
      ),
    failNext: (count, status) => void failures.push(...Array<number>(count).fill(status)),
    delayNext: (count, ms) => void delays.push(...Array<number>(count).fill(ms)),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
