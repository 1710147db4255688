import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { describe } from '../../openapi/describe.js';
import { arr, bool, decimal, int, nullable, num, obj, str } from '../../openapi/schemaHelpers.js';
import { validate } from '../../validate.js';
import { listPricesHandler, priceHistoryHandler, pricesOfSymbolHandler } from './handlers.js';
import { listPricesQuery, priceHistoryQuery, priceSymbolParams, priceSymbolQuery } from '../../reads/prices/schema.js';

const priceSchema = obj({
  tokenId: str,
  chainId: int,
  address: str,
  symbol: str,
  price: nullable(num),
  updatedAt: int,
  source: str,
  stale: bool,
});
const candleSchema = obj({
  day: int,
  timestamp: decimal,
  date: str,
  open: num,
  close: num,
  min: num,
  max: num,
  source: nullable(str),
});
const CSV = {
  'text/csv': { type: 'string', description: 'day,timestamp,date,open,close,min,max,source rows after a header row' },
};

const HISTORY_DESCRIPTION =
  "A token's USD price per `grain` bucket (hour, day, week from Monday, month) between the Unix days `from` and `to` (both included; default the last 365 days, 90 for hours; at most 3660 days, 92 for hours; hourly candles are kept 90 days), oldest first: `open` of the bucket's first price, `close` and `source` of its last, `min` and `max` over it; `day` is the Unix day the bucket starts in, `timestamp` and `date` its start. The token is `chainId` + `address`, or `symbol` (with `chainId` when several chains have it). `format=csv` (or, without `format`, `Accept: text/csv`) answers CSV rows instead of JSON.";

/**
 * /v4/prices: current token prices and their daily history (the prices job's tables token_prices,
 * token_price_history), and the hosted service's /v4/tokens/prices/history answered by the same
 * handler.
 */
export function pricesRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(
    ['/prices', '/prices/'],
    describe({
      summary: 'Current USD prices of tokens',
      description:
        'The current USD price of each priced token matching the filters, ordered by chain and symbol: `price` is null when the stored price is older than the maximum age (`stale`), `updatedAt` the Unix seconds of the price at its source, `source` where it came from. Test tokens only with `test=true`.',
      response: arr(priceSchema),
    }),
    validate({ query: listPricesQuery }),
    listPricesHandler(deps),
  );
  router.get(
    ['/prices/symbol/:symbol', '/prices/symbol/:symbol/'],
    describe({
      summary: 'Current USD prices of the tokens with a symbol',
      description:
        'The current USD price of every token with this symbol (case-insensitive), on `chainId` when given, test tokens last; 404 when no such token is priced.',
      response: arr(priceSchema),
      errors: [404],
    }),
    validate({ params: priceSymbolParams, query: priceSymbolQuery }),
    pricesOfSymbolHandler(deps),
  );
  for (const path of ['/prices/history', '/tokens/prices/history']) {
    router.get(
      [path, `${path}/`],
      describe({
        summary: 'Price history of a token (JSON, or CSV with format=csv or Accept: text/csv)',
        description: HISTORY_DESCRIPTION,
        response: arr(candleSchema),
        also: CSV,
        errors: [404],
      }),
      validate({ query: priceHistoryQuery }),
      priceHistoryHandler(deps),
    );
  }
  return router;
}
