import { erc20Abi, type Address } from 'viem';
import type { ApiDeps } from '../../deps.js';
import { AppError, NotFoundError } from '../../errors.js';
import type { Handler } from '../../validate.js';
import { chainClientOf, readChain } from './readChain.js';
import { getTokenRow } from './repo.js';
import type { allowanceParams } from './schema.js';

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

/** The chain and address of a stored token id, or of a temporary `tmp-{chainId}-{address}` one (404 when unknown). */
async function tokenOf(deps: ApiDeps, id: string): Promise<{ chainId: number; address: string }> {
  const tmp = /^tmp-([0-9]+)-(0x[0-9a-fA-F]{40})$/.exec(id);
  if (tmp) return { chainId: Number(tmp[1]), address: tmp[2]!.toLowerCase() };
  const row = await getTokenRow(deps.pg, id);
  if (!row) throw new NotFoundError(`Token ${id} not found`);
  return { chainId: row.chain_id, address: row.address };
}

/**
 * GET /v4/tokens/{id}/allowance/{owner}/{spender}: the ERC20 `allowance(owner, spender)` read on chain
 * in one multicall at the latest block, with that block. A token whose allowance call fails (not an
 * ERC20, the native token) is a 422 naming `id`; an RPC failure a 503. Table tokens (for stored ids).
 */
export function allowanceHandler(deps: ApiDeps): Handler<{ params: typeof allowanceParams }> {
  return async (ctx) => {
    const { id, owner, spender } = ctx.state.params;
    const token = await tokenOf(deps, id);
    const chain = chainClientOf(deps, token.chainId, 'id');
    const [o, s] = [owner.toLowerCase() as Address, spender.toLowerCase() as Address];
    const { blockNumber, result } = await readChain(deps, chain, async () => {
      const blockNumber = await chain.client.getBlockNumber();
      const [result] = await chain.client.multicall({
        allowFailure: true,
        deployless: true,
        blockNumber,
        contracts: [{ address: token.address as Address, abi: erc20Abi, functionName: 'allowance', args: [o, s] }],
      });
      return { blockNumber: Number(blockNumber), result };
    });
    if (result.status !== 'success')
      throw new AppError(422, 'NOT_AN_ERC20', `Token ${id} answers no ERC20 allowance on chain ${token.chainId}`, {
        errors: [{ field: 'id', message: 'is not an ERC20 token on its chain (allowance reverted)' }],
      });
    ctx.body = {
      tokenId: id,
      chainId: token.chainId,
      address: token.address,
      owner: o,
      spender: s,
      allowance: result.result.toString(),
      blockNumber,
    } satisfies AllowanceResponse;
  };
}
