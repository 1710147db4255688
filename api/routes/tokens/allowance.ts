import type { Address } from 'viem';
import { readChain } from '../../chain/readChain.js';
import { readErc20, withCode } from '../../chain/tokenReads.js';
import type { ApiDeps } from '../../deps.js';
import { AppError, NotFoundError } from '../../errors.js';
import type { Handler } from '../../validate.js';
import { chainClientOf } from './readChain.js';
import { getTokenRow } from '../../reads/tokens/repo.js';
import type { allowanceParams } from '../../reads/tokens/schema.js';
import { PROBLEMS } from '../../problems/registry.js';

/** GET /v4/tokens/{id}/allowance/{owner}/{spender}: what `spender` may still pull of `owner`'s tokens. */
export type AllowanceResponse = {
  tokenId: string;
  chainId: number;
  address: string;
  owner: string;
  spender: string;
  /** Base units, a decimal string. */
  allowance: string;
  blockNumber: number;
};

/**
 * The chain and address of a stored token id, or of a temporary `tmp-{chainId}-{address}` one (404 when
 * unknown); `stored` false for a temporary id (its address is checked for code before any call).
 */
async function tokenOf(deps: ApiDeps, id: string): Promise<{ chainId: number; address: string; stored: boolean }> {
  const tmp = /^tmp-([0-9]+)-(0x[0-9a-fA-F]{40})$/.exec(id);
  if (tmp) return { chainId: Number(tmp[1]), address: tmp[2]!.toLowerCase(), stored: false };
  const row = await getTokenRow(deps.pg, id);
  if (!row) throw new NotFoundError(`Token ${id} not found`);
  return { chainId: row.chain_id, address: row.address, stored: true };
}

/**
 * GET /v4/tokens/{id}/allowance/{owner}/{spender}: the ERC20 `allowance(owner, spender)` read on chain
 * at the latest block, with that block, within the request's chain-read bounds (readChain: the call's
 * gas limited). A token whose allowance call fails (not an ERC20, no code, the native token, a looping
 * contract) is a 422 naming `id`; an RPC failure a 503. Table tokens (for stored ids).
 */
export function allowanceHandler(deps: ApiDeps): Handler<{ params: typeof allowanceParams }> {
  return async (ctx) => {
    const { id, owner, spender } = ctx.state.params;
    const token = await tokenOf(deps, id);
    const chain = chainClientOf(deps, token.chainId, 'id');
    const [o, s] = [owner.toLowerCase() as Address, spender.toLowerCase() as Address];
    const gas = BigInt(deps.config.chainReads.readGas);
    const { blockNumber, allowance } = await readChain(deps, chain, { gas }, async (client) => {
      const blockNumber = await client.getBlockNumber();
      // A temporary id names any address: called only once it shows contract code at that block.
      const called = token.stored || (await withCode(client, [token.address], blockNumber)).has(token.address);
      const [allowance] = called
        ? await readErc20(client, [{ address: token.address, functionName: 'allowance', args: [o, s] }], blockNumber)
        : [undefined];
      return { blockNumber: Number(blockNumber), allowance };
    });
    if (typeof allowance !== 'bigint')
      throw new AppError(PROBLEMS.NOT_AN_ERC20, `Token ${id} answers no ERC20 allowance on chain ${token.chainId}`, {
        errors: [{ field: 'id', message: 'is not an ERC20 token on its chain (allowance failed)' }],
      });
    ctx.body = {
      tokenId: id,
      chainId: token.chainId,
      address: token.address,
      owner: o,
      spender: s,
      allowance: allowance.toString(),
      blockNumber,
    } satisfies AllowanceResponse;
  };
}
