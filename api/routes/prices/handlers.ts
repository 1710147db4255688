import { listPrices, loadPriceHistory } from '../../reads/prices/priceReads.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { NotFoundError } from '../../errors.js';
import type { Handler } from '../../validate.js';
import { recordsFormat } from '../../recordsFormat.js';
import { listPricesOfSymbol } from '../../reads/prices/repo.js';
import type {
  listPricesQuery,
  priceHistoryQuery,
  priceSymbolParams,
  priceSymbolQuery,
} from '../../reads/prices/schema.js';
import { candlesToCsv, serializePrice } from '../../reads/prices/serialize.js';

/** GET /v4/prices: current USD prices of priced tokens, filtered and paged (listPrices). */
export function listPricesHandler(deps: ApiDeps): Handler<{ query: typeof listPricesQuery }> {
  return async (ctx) => {
    ctx.body = await listPrices(deps, ctx.state.query);
  };
}

/** GET /v4/prices/symbol/{symbol}: the prices of every token with that symbol (404 when none is priced). */
export function pricesOfSymbolHandler(
  deps: ApiDeps,
): Handler<{ params: typeof priceSymbolParams; query: typeof priceSymbolQuery }> {
  return async (ctx) => {
    const { symbol } = ctx.state.params;
    const rows = await listPricesOfSymbol(deps.pg, symbol, ctx.state.query.chainId);
    if (!rows.length) throw new NotFoundError(`No priced token with symbol ${symbol}`);
    const now = new Date(nowSeconds(deps) * 1000);
    ctx.body = rows.map((r) => serializePrice(r, now, deps.config.prices.maxAgeSeconds));
  };
}

/**
 * GET /v4/prices/history and /v4/tokens/prices/history: loadPriceHistory as JSON, or CSV with
 * `format=csv` or Accept: text/csv.
 */
export function priceHistoryHandler(deps: ApiDeps): Handler<{ query: typeof priceHistoryQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    // Every answer, a 404 for an unknown token included, depends on Accept (CSV or JSON).
    ctx.vary('Accept');
    const candles = await loadPriceHistory(deps, q);
    if (recordsFormat(ctx, q.format) === 'csv') {
      ctx.type = 'text/csv';
      ctx.body = candlesToCsv(candles);
      return;
    }
    ctx.body = candles;
  };
}
