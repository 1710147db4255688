import { toServedPrice } from '../../../domain/prices.js';
import { loadTokenPrices } from '../../../domain/tables/prices.js';
import { missingTokens } from '../../../domain/tables/tokens.js';
import { nowSeconds, readPgOf, type ApiDeps } from '../../deps.js';
import type { Queryable } from '../../../internal/pg.js';
import { readChain } from '../../chain/readChain.js';
import { describeTokens, withCode } from '../../chain/tokenReads.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { getTokenRow, listTokenRows, type TokenDbRow } from '../../reads/tokens/repo.js';
import type { Handler } from '../../validate.js';
import { ADDRESS_RE, type listTokensQuery, type tokenIdParams } from '../../reads/tokens/schema.js';
import { serializeChainToken, serializeToken, type TokenResponse } from './serialize.js';

/** Token records of stored rows with their served (fresh or null) prices, read from `db` (default: the primary). */
export async function withPrices(
  deps: ApiDeps,
  rows: TokenDbRow[],
  now: Date,
  db: Queryable = deps.pg,
): Promise<TokenResponse[]> {
  const prices = await loadTokenPrices(
    db,
    rows.map((r) => r.id),
    now,
    deps.config.prices.maxAgeSeconds,
  );
  return rows.map((r) => serializeToken(r, toServedPrice(prices.get(r.id))));
}

/**
 * An address unknown to the database on `chainId`, read from the chain (not stored) within the
 * request's chain-read bounds (readChain): called only once it shows contract code, each of name,
 * symbol and decimals an eth_call with its own gas. Empty when the chain is not ours or the contract is
 * not an ERC20 (or loops); an RPC failure is a 503.
 */
export async function readUnknownToken(deps: ApiDeps, chainId: number, address: string): Promise<TokenResponse[]> {
  const chain = deps.rpc.get(chainId);
  if (!chain || !(await missingTokens(readPgOf(deps), chainId, [address])).length) return [];
  const token = address.toLowerCase();
  const gas = BigInt(deps.config.chainReads.readGas);
  const rows = await readChain(deps, chain, { gas }, async (client) => {
    const blockNumber = await client.getBlockNumber();
    if (!(await withCode(client, [token], blockNumber)).has(token)) return [];
    return describeTokens(client, chainId, [token], blockNumber);
  });
  return rows.map(serializeChainToken);
}

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
