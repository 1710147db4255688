import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type PriceApiServer = {
  /** Base URL to use as PRICE_API_URL. */
  url: string;
  /** `<chainKey>:<address>` (lower-case) → USD price; edit it to move prices. */
  prices: Map<string, number>;
  close(): Promise<void>;
};

/**
 * A small local server answering the common public "coins prices" shape
 * (`GET /prices/current/<chainKey:address,…>` → `{ coins: { key: { price, symbol, decimals, timestamp, confidence } } }`),
 * used as the external price API of the quick start's devnets (target and LP tokens have no feed).
 */
export async function startPriceApiServer({
  port = 0,
  prices = new Map<string, number>(),
}: {
  port?: number;
  prices?: Map<string, number>;
} = {}): Promise<PriceApiServer> {
  const server: Server = createServer((req, res) => {
    const match = /^\/prices\/current\/([^?]+)/.exec(req.url ?? '');
    if (!match?.[1])
      return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
    const now = Math.floor(Date.now() / 1000);
    const coins = decodeURIComponent(match[1])
      .split(',')
      .filter((c) => prices.has(c.toLowerCase()));
    const body = {
      coins: Object.fromEntries(
        coins.map((c) => [
          c,
          { price: prices.get(c.toLowerCase()), symbol: '', decimals: 18, timestamp: now, confidence: 0.99 },
        ]),
      ),
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    prices,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
