import { blacklistedChains } from '../../reads/blacklists/repo.js';
import { parseAbi, zeroAddress, type PublicClient } from 'viem';
import { DEPLOYLESS_MULTICALL_GAS, readChain } from '../../chain/readChain.js';
import type { ApiDeps } from '../../deps.js';
import { AppError, ServiceUnavailableError, ValidationError } from '../../errors.js';
import { withTransaction as inWriteTransaction } from '../../../internal/pg.js';
import type { Handler } from '../../validate.js';
import { loadCreatorId, loadUser } from '../../reads/users/repo.js';
import type {
  chainQuery,
  noQuery,
  operatorParams,
  operatorQuery,
  recipientParams,
  termsBody,
  userParams,
} from '../../reads/users/schema.js';
import { PROBLEMS } from '../../problems/registry.js';

const creatorAbi = parseAbi([
  'function messageHash() view returns (bytes32)',
  'function userSignatures(address) view returns (bytes32)',
  'function userSignatureWhitelist(address) view returns (uint256)',
]);
const distributorAbi = parseAbi([
  'function claimRecipient(address user, address token) view returns (address)',
  'function operators(address user, address operator) view returns (uint256)',
  'function mainOperators(address operator, address token) view returns (uint256)',
  'function accessControlManager() view returns (address)',
]);
const accessControlAbi = parseAbi(['function isGovernorOrGuardian(address account) view returns (bool)']);

/**
 * The Distributor's claim rules (docs/contracts.md#distributor-functions), named as served in `allowedBy`: the user itself,
 * `operators[user][operator]`, `operators[user][0]` (anyone may claim for the user),
 * `mainOperators[operator][token]`, `mainOperators[operator][0]` (every token), governor or guardian.
 */
export type ClaimRule =
  | 'USER'
  | 'OPERATOR'
  | 'ANYONE'
  | 'MAIN_OPERATOR_TOKEN'
  | 'MAIN_OPERATOR'
  | 'GOVERNOR_OR_GUARDIAN';
const ZERO_HASH = `0x${'0'.repeat(64)}`;

function chainOf(deps: ApiDeps, chainId: number | undefined) {
  const chain = chainId === undefined ? undefined : deps.rpc.get(chainId);
  if (!chain)
    throw new ValidationError([
      {
        field: 'chainId',
        message: `is required and must be a supported chain (supported: ${[...deps.rpc.keys()].join(', ')})`,
      },
    ]);
  return chain;
}

/**
 * Reads of our own DistributionCreator or Distributor for one request, within the chain-read bounds
 * (api/chain/readChain.ts): `calls` views in one deployless multicall, CHAIN_READ_GAS each on top of
 * the multicall's own creation.
 */
function readOurs<T>(
  deps: ApiDeps,
  chainId: number | undefined,
  calls: number,
  read: (client: PublicClient) => Promise<T>,
): Promise<T> {
  const chain = chainOf(deps, chainId);
  const gas = DEPLOYLESS_MULTICALL_GAS + BigInt(deps.config.chainReads.readGas) * BigInt(calls);
  return readChain(deps, chain, { gas }, read);
}

/** GET /v4/users/{address}: the user's tags and tier (table users), creator id, associated addresses, the chains it is blacklisted on (table blacklists). */
export function userProfileHandler(deps: ApiDeps): Handler<{ params: typeof userParams; query: typeof noQuery }> {
  return async (ctx) => {
    const address = ctx.state.params.address.toLowerCase();
    const [user, creatorId, blacklistedChainIds] = await Promise.all([
      loadUser(deps.pg, address),
      loadCreatorId(deps.pg, address),
      blacklistedChains(deps.pg, address),
    ]);
    ctx.body = {
      address,
      tags: user?.tags ?? [],
      creatorId,
      tier: user?.tier ?? 0,
      associated: [] as string[],
      blacklistedChainIds,
    };
  };
}

/**
 * The chain's current conditions hash and whether the user passes them on chain (the hasSigned gate,
 * docs/contracts.md#creating-campaigns).
 */
async function readTerms(deps: ApiDeps, chainId: number | undefined, address: string) {
  const { chain } = chainOf(deps, chainId);
  const user = lower(address);
  const [messageHash, signature, whitelist] = await readOurs(deps, chainId, 3, (client) =>
    client.multicall({
      allowFailure: false,
      deployless: true,
      contracts: [
        { address: chain.distributionCreator, abi: creatorAbi, functionName: 'messageHash' },
        { address: chain.distributionCreator, abi: creatorAbi, functionName: 'userSignatures', args: [user] },
        { address: chain.distributionCreator, abi: creatorAbi, functionName: 'userSignatureWhitelist', args: [user] },
      ],
    }),
  );
  return {
    chainId: chain.id,
    messageHash: messageHash.toLowerCase(),
    onChain: messageHash === ZERO_HASH || whitelist !== 0n || signature === messageHash,
  };
}

/**
 * GET /v4/users/{address}/terms?chainId: whether the wallet accepted the conditions on that chain:
 * on chain (no message set, a whitelisted signer, or the current message's hash signed), or through
 * POST /terms for the current message. Tables: terms_acceptances.
 */
export function userTermsHandler(deps: ApiDeps): Handler<{ params: typeof userParams; query: typeof chainQuery }> {
  return async (ctx) => {
    const user = ctx.state.params.address;
    const terms = await readTerms(deps, ctx.state.query.chainId, user);
    if (terms.onChain) return void (ctx.body = true);
    const { rowCount } = await deps.pg.query(
      'SELECT 1 FROM terms_acceptances WHERE address = $1 AND chain_id = $2 AND message_hash = $3',
      [user.toLowerCase(), terms.chainId, terms.messageHash],
    );
    ctx.body = Boolean(rowCount);
  };
}

/**
 * POST /v4/users/{address}/terms (body `chainId`): the wallet's own session records that it accepts
 * the chain's current conditions (their hash is read from the DistributionCreator). Another
 * wallet's session is 403. Answers the recorded acceptance. Tables: terms_acceptances.
 */
export function acceptTermsHandler(deps: ApiDeps): Handler<{ params: typeof userParams; body: typeof termsBody }> {
  return async (ctx) => {
    const user = ctx.state.params.address.toLowerCase() as `0x${string}`;
    if (ctx.state.session!.address.toLowerCase() !== user)
      throw new AppError(PROBLEMS.FORBIDDEN, 'Only the wallet itself may accept the terms for its address');
    const terms = await readTerms(deps, ctx.state.body.chainId, user);
    const row = await inWriteTransaction(
      deps.pg,
      async (tx) =>
        (
          await tx.query<{ accepted_at: Date }>(
            `INSERT INTO terms_acceptances (address, chain_id, message_hash) VALUES ($1, $2, $3)
       ON CONFLICT (address, chain_id, message_hash) DO UPDATE SET accepted_at = terms_acceptances.accepted_at RETURNING accepted_at`,
            [user, terms.chainId, terms.messageHash],
          )
        ).rows[0]!,
    );
    ctx.body = {
      address: user,
      chainId: terms.chainId,
      messageHash: terms.messageHash,
      acceptedAt: row.accepted_at.toISOString(),
      onChain: terms.onChain,
    };
  };
}

/**
 * GET /v4/users/{address}/recipient/{token}?chainId: where the Distributor pays the user's claims of
 * that token (the token's recipient, else the user's default one); the zero address when unset or
 * when the Distributor has no claim recipients.
 */
export function userRecipientHandler(
  deps: ApiDeps,
): Handler<{ params: typeof recipientParams; query: typeof chainQuery }> {
  return async (ctx) => {
    const { chain } = chainOf(deps, ctx.state.query.chainId);
    const params = ctx.state.params;
    const [address, token] = [lower(params.address), lower(params.token)];
    const reads = await readOurs(deps, chain.id, 2, (client) =>
      client.multicall({
        allowFailure: true,
        deployless: true,
        contracts: [
          { address: chain.distributor, abi: distributorAbi, functionName: 'claimRecipient', args: [address, token] },
          {
            address: chain.distributor,
            abi: distributorAbi,
            functionName: 'claimRecipient',
            args: [address, zeroAddress],
          },
        ],
      }),
    );
    const set = reads
      .map((r) => (r.status === 'success' ? (r.result as string) : zeroAddress))
      .find((a) => a !== zeroAddress);
    ctx.body = { recipient: (set ?? zeroAddress).toLowerCase() };
  };
}

/**
 * GET /v4/users/{address}/operator/{operatorAddress}?chainId[&token]: whether the operator may claim
 * for the user, as the Distributor decides it (docs/contracts.md#distributor-functions), and by which rules (`allowedBy`,
 * ClaimRule). `mainOperators[operator][token]` is read when `token` is given. A rule the deployed
 * Distributor does not have (an older one without mainOperators) does not allow; the core
 * `operators` read failing is a 503, never a guess.
 */
export function userOperatorHandler(
  deps: ApiDeps,
): Handler<{ params: typeof operatorParams; query: typeof operatorQuery }> {
  return async (ctx) => {
    const query = ctx.state.query;
    const { chain } = chainOf(deps, query.chainId);
    const params = ctx.state.params;
    const [address, operatorAddress] = [lower(params.address), lower(params.operatorAddress)];
    const d = chain.distributor;
    const { reads, governance } = await readOurs(deps, chain.id, 5, async (client) => {
      const reads = await client.multicall({
        allowFailure: true,
        deployless: true,
        contracts: [
          { address: d, abi: distributorAbi, functionName: 'operators', args: [address, operatorAddress] },
          { address: d, abi: distributorAbi, functionName: 'operators', args: [address, zeroAddress] },
          { address: d, abi: distributorAbi, functionName: 'mainOperators', args: [operatorAddress, zeroAddress] },
          {
            address: d,
            abi: distributorAbi,
            functionName: 'mainOperators',
            args: [operatorAddress, query.token ? lower(query.token) : zeroAddress],
          },
          { address: d, abi: distributorAbi, functionName: 'accessControlManager' },
        ],
      });
      if (reads[0].status !== 'success' || reads[1].status !== 'success')
        throw new ServiceUnavailableError(
          `the Distributor operators read on chain ${chain.id}`,
          reads[0].error ?? reads[1].error,
        );
      // The Distributor's own AccessControlManager: a contract of our deployment, not the caller's choice.
      const governance =
        reads[4].status === 'success' &&
        (await client
          .readContract({
            address: reads[4].result,
            abi: accessControlAbi,
            functionName: 'isGovernorOrGuardian',
            args: [operatorAddress],
          })
          .catch((e: unknown) => {
            throw new ServiceUnavailableError(`the AccessControlManager read on chain ${chain.id}`, e);
          }));
      return { reads, governance };
    });
    const set = (r: { status: string; result?: unknown }) => r.status === 'success' && r.result !== 0n;
    const allowedBy: ClaimRule[] = [
      ...(address === operatorAddress ? ['USER' as const] : []),
      ...(set(reads[0]) ? ['OPERATOR' as const] : []),
      ...(set(reads[1]) ? ['ANYONE' as const] : []),
      ...(query.token && set(reads[3]) ? ['MAIN_OPERATOR_TOKEN' as const] : []),
      ...(set(reads[2]) ? ['MAIN_OPERATOR' as const] : []),
      ...(governance ? ['GOVERNOR_OR_GUARDIAN' as const] : []),
    ];
    ctx.body = { isOperator: allowedBy.length > 0, allowedBy };
  };
}

/** Path addresses lower-cased: viem refuses mixed case that is not a valid checksum, and the schema accepts any case. */
const lower = (address: string) => address.toLowerCase() as `0x${string}`;
