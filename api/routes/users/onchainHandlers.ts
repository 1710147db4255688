import type { Context } from 'koa';
import { parseAbi, zeroAddress } from 'viem';
import type { ApiDeps } from '../../deps.js';
import { ValidationError } from '../../errors.js';
import { loadCreatorId, loadUser } from './repo.js';

const creatorAbi = parseAbi([
  'function messageHash() view returns (bytes32)',
  'function userSignatures(address) view returns (bytes32)',
  'function userSignatureWhitelist(address) view returns (uint256)',
]);
const distributorAbi = parseAbi([
  'function claimRecipient(address user, address token) view returns (address)',
  'function operators(address user, address operator) view returns (uint256)',
]);
const ZERO_HASH = `0x${'0'.repeat(64)}`;

function chainOf(deps: ApiDeps, chainId: number | undefined) {
  const chain = chainId === undefined ? undefined : deps.rpc.get(chainId);
  if (!chain) throw new ValidationError([{ field: 'chainId', message: `is required and must be a supported chain (supported: ${[...deps.rpc.keys()].join(', ')})` }]);
  return chain;
}

/** GET /v4/users/{address}: the user's tags and tier (table users), creator id, associated addresses. */
export function userProfileHandler(deps: ApiDeps) {
  return async (ctx: Context): Promise<void> => {
    const address = (ctx.state.params as { address: string }).address.toLowerCase();
    const [user, creatorId] = await Promise.all([loadUser(deps.pg, address), loadCreatorId(deps.pg, address)]);
    ctx.body = { address, tags: user?.tags ?? [], creatorId, tier: user?.tier ?? 0, associated: [] as string[] };
  };
}

/**
 * GET /v4/users/{address}/terms?chainId: whether the wallet passes the DistributionCreator's
 * conditions on that chain (chain-facts §1.2 hasSigned: no message set, a whitelisted signer, or
 * the current message's hash accepted).
 */
export function userTermsHandler(deps: ApiDeps) {
  return async (ctx: Context): Promise<void> => {
    const { client, chain } = chainOf(deps, (ctx.state.query as { chainId?: number }).chainId);
    const user = lower((ctx.state.params as { address: string }).address);
    const [messageHash, signature, whitelist] = await client.multicall({ allowFailure: false, deployless: true, contracts: [
      { address: chain.distributionCreator, abi: creatorAbi, functionName: 'messageHash' },
      { address: chain.distributionCreator, abi: creatorAbi, functionName: 'userSignatures', args: [user] },
      { address: chain.distributionCreator, abi: creatorAbi, functionName: 'userSignatureWhitelist', args: [user] },
    ] });
    ctx.body = messageHash === ZERO_HASH || whitelist !== 0n || signature === messageHash;
  };
}

/**
 * GET /v4/users/{address}/recipient/{token}?chainId: where the Distributor pays the user's claims of
 * that token (the token's recipient, else the user's default one); the zero address when unset or
 * when the Distributor has no claim recipients.
 */
export function userRecipientHandler(deps: ApiDeps) {
  return async (ctx: Context): Promise<void> => {
    const { client, chain } = chainOf(deps, (ctx.state.query as { chainId?: number }).chainId);
    const params = ctx.state.params as { address: string; token: string };
    const [address, token] = [lower(params.address), lower(params.token)];
    const reads = await client.multicall({ allowFailure: true, deployless: true, contracts: [
      { address: chain.distributor, abi: distributorAbi, functionName: 'claimRecipient', args: [address, token] },
      { address: chain.distributor, abi: distributorAbi, functionName: 'claimRecipient', args: [address, zeroAddress] },
    ] });
    const set = reads.map((r) => (r.status === 'success' ? (r.result as string) : zeroAddress)).find((a) => a !== zeroAddress);
    ctx.body = { recipient: (set ?? zeroAddress).toLowerCase() };
  };
}

/** GET /v4/users/{address}/operator/{operatorAddress}?chainId: whether the operator may claim for the user. */
export function userOperatorHandler(deps: ApiDeps) {
  return async (ctx: Context): Promise<void> => {
    const { client, chain } = chainOf(deps, (ctx.state.query as { chainId?: number }).chainId);
    const params = ctx.state.params as { address: string; operatorAddress: string };
    const [address, operatorAddress] = [lower(params.address), lower(params.operatorAddress)];
    const toggled = await client.readContract({ address: chain.distributor, abi: distributorAbi, functionName: 'operators', args: [address, operatorAddress] });
    ctx.body = { isOperator: toggled !== 0n };
  };
}

/** Path addresses lower-cased: viem refuses mixed case that is not a valid checksum, and the schema accepts any case. */
const lower = (address: string) => address.toLowerCase() as `0x${string}`;
