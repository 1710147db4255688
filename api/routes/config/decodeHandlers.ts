import { readChain } from '../../chain/readChain.js';
import { describeTokens, withCode } from '../../chain/tokenReads.js';
import type { ApiDeps } from '../../deps.js';
import { ValidationError } from '../../errors.js';
import { DecodeArgsError, decodeCreateCampaignArgs, type CampaignTuple } from './decodeCreateCampaignArgs.js';
import { describeCampaign, type DescribedCampaign, type RewardTokenInfo } from './describeCampaign.js';
import type { Handler } from '../../validate.js';
import type { decodeArgsBody } from './schema.js';

/** Response of POST /v4/config/decode/args/createCampaign. */
export type DecodeArgsResult = { distributionChainId: number; campaigns: DescribedCampaign[] };

async function tokenInfos(deps: ApiDeps, chainId: number, addresses: string[]): Promise<Map<string, RewardTokenInfo>> {
  const unique = [...new Set(addresses)];
  const { rows } = await deps.pg.query<{ address: string; symbol: string; name: string | null; decimals: number }>(
    'SELECT address, symbol, name, decimals FROM tokens WHERE chain_id = $1 AND address = ANY($2::text[])',
    [chainId, unique],
  );
  const out = new Map<string, RewardTokenInfo>(
    rows.map((r) => [r.address, { address: r.address, symbol: r.symbol, name: r.name, decimals: r.decimals }]),
  );
  const missing = unique.filter((a) => !out.has(a));
  const gas = BigInt(deps.config.chainReads.readGas);
  // Each token we do not store may cost name, symbol and decimals: refused up front beyond the
  // request's chain gas budget, rather than described in part.
  const most = Number(BigInt(deps.config.chainReads.requestGas) / (3n * gas));
  if (missing.length > most)
    throw new ValidationError([
      {
        field: 'args',
        message: `names ${missing.length} reward tokens we do not store; their metadata is read from the chain (name, symbol and decimals, ${gas} gas each), so at most ${most} per request (CHAIN_REQUEST_GAS)`,
      },
    ]);
  if (missing.length) {
    // Addresses from the caller's calldata: called within the request's chain-read bounds, and only
    // those with contract code.
    const described = await readChain(deps, deps.rpc.get(chainId)!, { gas }, async (client) => {
      const blockNumber = await client.getBlockNumber();
      const coded = await withCode(client, missing, blockNumber);
      return describeTokens(
        client,
        chainId,
        missing.filter((a) => coded.has(a)),
        blockNumber,
      );
    });
    for (const r of described)
      out.set(r.address, { address: r.address, symbol: r.symbol, name: r.name, decimals: r.decimals });
  }
  for (const a of missing) if (!out.has(a)) out.set(a, { address: a, symbol: null, name: null, decimals: null });
  return out;
}

/**
 * POST /v4/config/decode/args/createCampaign: the campaigns of a createCampaign / createCampaigns
 * call (calldata or decoded arguments), human-readable, with the campaignId each would get on
 * `distributionChainId`. Reward token metadata from the tokens table, else read from the chain.
 * 400 naming `distributionChainId` (not a chain of ours) or what could not be decoded.
 */
export function decodeArgsHandler(deps: ApiDeps): Handler<{ body: typeof decodeArgsBody }> {
  return async (ctx) => {
    const { distributionChainId, args } = ctx.state.body;
    if (!deps.rpc.get(distributionChainId))
      throw new ValidationError([
        { field: 'distributionChainId', message: `is not a supported chain (${distributionChainId})` },
      ]);
    let tuples: CampaignTuple[];
    try {
      tuples = decodeCreateCampaignArgs(args);
    } catch (error) {
      if (error instanceof DecodeArgsError) throw new ValidationError(error.errors);
      throw error;
    }
    const tokens = await tokenInfos(
      deps,
      distributionChainId,
      tuples.map((t) => t.rewardToken),
    );
    const described = tuples.map((t) => describeCampaign(t, distributionChainId, tokens.get(t.rewardToken)!));
    const errors = described.flatMap((d, i) =>
      d.decodeError
        ? [{ field: tuples.length === 1 ? 'args.campaignData' : `args.${i}.campaignData`, message: d.decodeError }]
        : [],
    );
    if (errors.length) throw new ValidationError(errors);
    ctx.body = { distributionChainId, campaigns: described.map((d) => d.campaign) } satisfies DecodeArgsResult;
  };
}
