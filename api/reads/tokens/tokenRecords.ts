import { toServedPrice } from '../../../domain/prices.js';
import { loadTokenPrices } from '../../../domain/tables/prices.js';
import { missingTokens } from '../../../domain/tables/tokens.js';
import { readPgOf, type ApiDeps } from '../../deps.js';
import type { Queryable } from '../../../internal/pg.js';
import { readChain } from '../../chain/readChain.js';
import { describeTokens, withCode } from '../../chain/tokenReads.js';
import type { TokenDbRow } from './repo.js';
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
