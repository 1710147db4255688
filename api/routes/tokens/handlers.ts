import { withPrices, readUnknownToken } from '../../reads/tokens/tokenRecords.js';
import { nowSeconds, readPgOf, type ApiDeps } from '../../deps.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { getTokenRow, listTokenRows } from '../../reads/tokens/repo.js';
import type { Handler } from '../../validate.js';
import { ADDRESS_RE, type listTokensQuery, type tokenIdParams } from '../../reads/tokens/schema.js';

/**
 * GET /v4/tokens: tokens matching the filters with their served price (tables tokens,
 * token_prices). With `chainId` and a 0x address as `search` that matches no stored token, the
 * token is read from the chain and returned with id `tmp-{chainId}-{address}`.
 */
export function listTokensHandler(deps: ApiDeps): Handler<{ query: typeof listTokensQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    const now = new Date(nowSeconds(deps) * 1000);
    // Reference data and job-written prices: lag-tolerant, from the read replica when there is one.
    const rows = await listTokenRows(readPgOf(deps), q, now, deps.config.prices.maxAgeSeconds);
    if (!rows.length && q.page === 0 && q.chainId !== undefined && q.search && ADDRESS_RE.test(q.search)) {
      ctx.body = await readUnknownToken(deps, q.chainId, q.search);
      return;
    }
    ctx.body = await withPrices(deps, rows, now, readPgOf(deps));
  };
}

/** GET /v4/tokens/{id}: one stored token (400 for a temporary `tmp-` id, 404 when unknown). */
export function getTokenHandler(deps: ApiDeps): Handler<{ params: typeof tokenIdParams }> {
  return async (ctx) => {
    const { id } = ctx.state.params;
    if (id.startsWith('tmp-'))
      throw new ValidationError([
        { field: 'id', message: 'is a temporary id of a token not stored; look it up with chainId and search' },
      ]);
    const row = await getTokenRow(readPgOf(deps), id);
    if (!row) throw new NotFoundError(`Token ${id} not found`);
    [ctx.body] = await withPrices(deps, [row], new Date(nowSeconds(deps) * 1000), readPgOf(deps));
  };
}
