import { zeroAddress, type Address } from 'viem';
import { readChain } from '../../chain/readChain.js';
import { describeTokens, readErc20, withCode } from '../../chain/tokenReads.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { ValidationError } from '../../errors.js';
import type { Handler } from '../../validate.js';
import { withPrices } from '../../reads/tokens/tokenRecords.js';
import { chainClientOf } from './readChain.js';
import { listRewardTokenRows, tokenRowsByAddress } from './rewardRepo.js';
import { MAX_BALANCE_TOKENS, type BalancesQuery, type balancesQuery } from '../../reads/tokens/schema.js';
import { serializeChainToken, type TokenResponse } from '../../reads/tokens/serialize.js';

/** The native token's stored address (the tokens job stores it under the zero address). */
const NATIVE_TOKEN_ADDRESS = zeroAddress;

/** A Token record with the owner's balance (base units, decimal string) and the block it was read at. */
export type BalanceResponse = TokenResponse & { balance: string; blockNumber: number };

/** The lower-case token addresses a balances request names, in order, without repeats. */
async function requestedTokens(deps: ApiDeps, q: BalancesQuery): Promise<string[]> {
  const base = q.tokenAddress
    ? [q.tokenAddress]
    : (await listRewardTokenRows(deps.pg, { chainId: q.chainId, verified: q.verified })).map((r) => r.address);
  const all = [...new Set([...base, ...(q.additionalTokenAddresses ?? [])].map((a) => a.toLowerCase()))];
  if (all.length > MAX_BALANCE_TOKENS)
    throw new ValidationError([
      {
        field: q.tokenAddress ? 'additionalTokenAddresses' : 'tokenAddress',
        message: `names ${all.length} tokens with the defaults; at most ${MAX_BALANCE_TOKENS} per request (give tokenAddress)`,
      },
    ]);
  return all;
}

/**
 * Refuses up front (400 naming the field) a request whose reads could exceed its chain gas budget
 * (CHAIN_REQUEST_GAS): a balanceOf per ERC20 token, and name, symbol and decimals for each we do not
 * store, all of CHAIN_READ_GAS. With the defaults: 50 tokens we do not store, or 100 stored ones.
 */
function withinBudget(deps: ApiDeps, q: BalancesQuery, erc20: string[], stored: Map<string, unknown>): void {
  const { readGas, requestGas } = deps.config.chainReads;
  const unknown = erc20.filter((a) => !stored.has(a)).length;
  const calls = erc20.length + 3 * unknown;
  if (calls * readGas <= requestGas) return;
  throw new ValidationError([
    {
      field: q.tokenAddress ? 'additionalTokenAddresses' : 'tokenAddress',
      message: `names ${erc20.length} tokens, ${unknown} of them not stored here (balanceOf each, and name, symbol and decimals for those): up to ${calls} calls of ${readGas} gas, more than a request's ${requestGas} (CHAIN_REQUEST_GAS); at most ${Math.floor(requestGas / readGas / 4)} tokens we do not store per request`,
    },
  ]);
}

/**
 * GET /v4/tokens/balances: `userAddress`'s balances of the requested tokens (default: the chain's
 * reward tokens), all read at one block within the request's chain-read bounds (readChain): a
 * `balanceOf` eth_call per token with its own gas (readErc20), addresses we do not store only once
 * they show contract code there (withCode), then the name, symbol and decimals of those among them that
 * answered; the native token's balance with eth_getBalance at the same block. Tokens whose reads fail
 * (not an ERC20, a looping or too costly contract) are left out. Tables reward_token_min_amounts,
 * tokens, token_prices.
 */
export function balancesHandler(deps: ApiDeps): Handler<{ query: typeof balancesQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    const chain = chainClientOf(deps, q.chainId);
    const addresses = await requestedTokens(deps, q);
    if (!addresses.length) return void (ctx.body = []); // a chain without reward tokens: nothing to read
    const stored = await tokenRowsByAddress(deps.pg, q.chainId, addresses);
    const erc20 = addresses.filter((a) => a !== NATIVE_TOKEN_ADDRESS);
    const user = q.userAddress.toLowerCase() as Address;
    const gas = BigInt(deps.config.chainReads.readGas);
    withinBudget(deps, q, erc20, stored);
    const { blockNumber, balanceOf, metadata } = await readChain(deps, chain, { gas }, async (client) => {
      const blockNumber = await client.getBlockNumber();
      const unknown = erc20.filter((a) => !stored.has(a));
      const coded = unknown.length ? await withCode(client, unknown, blockNumber) : new Set<string>();
      const read = erc20.filter((a) => stored.has(a) || coded.has(a));
      const [balances, native] = await Promise.all([
        readErc20(
          client,
          read.map((address) => ({ address, functionName: 'balanceOf' as const, args: [user] as const })),
          blockNumber,
        ),
        addresses.includes(NATIVE_TOKEN_ADDRESS) ? client.getBalance({ address: user, blockNumber }) : null,
      ]);
      const balanceOf = new Map<string, bigint>();
      read.forEach((a, i) => typeof balances[i] === 'bigint' && balanceOf.set(a, balances[i]));
      if (native !== null) balanceOf.set(NATIVE_TOKEN_ADDRESS, native);
      const described = unknown.filter((a) => balanceOf.has(a));
      const metadata = described.length ? await describeTokens(client, q.chainId, described, blockNumber) : [];
      return { blockNumber: Number(blockNumber), balanceOf, metadata };
    });
    const now = new Date(nowSeconds(deps) * 1000);
    const records = new Map<string, TokenResponse>();
    const priced = await withPrices(deps, [...stored.values()], now);
    for (const t of priced) records.set(t.address, t);
    for (const m of metadata) records.set(m.address, serializeChainToken(m));
    ctx.body = addresses.flatMap((a): BalanceResponse[] => {
      const record = records.get(a);
      const balance = balanceOf.get(a);
      return record && balance !== undefined ? [{ ...record, balance: balance.toString(), blockNumber }] : [];
    });
  };
}
