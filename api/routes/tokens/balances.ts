import { erc20Abi, zeroAddress, type Address } from 'viem';
import type { TokenRow } from '../../../domain/readTokenMetadata.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { ValidationError } from '../../errors.js';
import type { Handler } from '../../validate.js';
import { withPrices } from './handlers.js';
import { chainClientOf, readChain } from './readChain.js';
import { listRewardTokenRows, tokenRowsByAddress } from './rewardRepo.js';
import { MAX_BALANCE_TOKENS, type BalancesQuery, type balancesQuery } from './schema.js';
import { serializeChainToken, type TokenResponse } from './serialize.js';

/** The native token's stored address (the tokens job stores it under the zero address). */
const NATIVE_TOKEN_ADDRESS = zeroAddress;

/** A Token record with the owner's balance (base units, decimal string) and the block it was read at. */
export type BalanceResponse = TokenResponse & { balance: string; blockNumber: number };

/**
 * Pure: the calls of one balances multicall: `balanceOf(user)` of every ERC20, then name, symbol and
 * decimals of each token we do not store (results are read back by position).
 */
function balanceCalls(erc20: readonly string[], unknown: readonly string[], user: Address) {
  return [
    ...erc20.map((a) => ({ address: a as Address, abi: erc20Abi, functionName: 'balanceOf', args: [user] })),
    ...unknown.flatMap((a) =>
      (['name', 'symbol', 'decimals'] as const).map((functionName) => ({
        address: a as Address,
        abi: erc20Abi,
        functionName,
      })),
    ),
  ] as { address: Address; abi: typeof erc20Abi; functionName: 'balanceOf'; args: [Address] }[];
}

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
 * GET /v4/tokens/balances: `userAddress`'s balances of the requested tokens (default: the chain's
 * reward tokens) read on chain in ONE deployless multicall at one block (balanceOf of every ERC20,
 * and name/symbol/decimals of tokens we do not store), the native token's with eth_getBalance at the
 * same block (a deployless multicall has no address of its own to ask getEthBalance of). Tokens whose reads fail (not an ERC20) are left out. Tables reward_token_min_amounts,
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
    const unknown = erc20.filter((a) => !stored.has(a));
    const user = q.userAddress.toLowerCase() as Address;
    const { blockNumber, results, native } = await readChain(deps, chain, async () => {
      const blockNumber = await chain.client.getBlockNumber();
      const [results, native] = await Promise.all([
        // Without an ERC20 to read (the native token alone) there is no call to make.
        erc20.length
          ? chain.client.multicall({
              allowFailure: true,
              deployless: true,
              batchSize: 0, // one eth_call for the whole request
              blockNumber,
              contracts: balanceCalls(erc20, unknown, user),
            })
          : [],
        addresses.includes(NATIVE_TOKEN_ADDRESS) ? chain.client.getBalance({ address: user, blockNumber }) : null,
      ]);
      return { blockNumber: Number(blockNumber), results: results as { status: string; result?: unknown }[], native };
    });
    const ok = (i: number) => (results[i]?.status === 'success' ? results[i]!.result : undefined);
    const balanceOf = new Map<string, bigint>();
    erc20.forEach((a, i) => {
      const balance = ok(i);
      if (typeof balance === 'bigint') balanceOf.set(a, balance);
    });
    if (native !== null) balanceOf.set(NATIVE_TOKEN_ADDRESS, native);
    const metadata = unknown.flatMap((address, i): TokenRow[] => {
      const [name, symbol, decimals] = [0, 1, 2].map((k) => ok(erc20.length + i * 3 + k));
      // As readTokenMetadata: without a symbol and decimals it is not a token we can describe.
      if (typeof symbol !== 'string' || decimals === undefined) return [];
      return [
        {
          chainId: q.chainId,
          address,
          name: typeof name === 'string' ? name : null,
          symbol,
          decimals: Number(decimals),
        },
      ];
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
