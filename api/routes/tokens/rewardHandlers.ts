import { nowSeconds, type ApiDeps } from '../../deps.js';
import type { Handler } from '../../validate.js';
import { withPrices } from '../../reads/tokens/tokenRecords.js';
import { listRewardTokenRows, type ListRewardTokensArgs } from './rewardRepo.js';
import type { rewardChainParams, rewardChainQuery, rewardTokensQuery } from '../../reads/tokens/schema.js';
import type { TokenResponse } from '../../reads/tokens/serialize.js';

/** A reward token: its Token record and the DistributionCreator's minimum amount per hour (base units). */
export type RewardTokenResponse = TokenResponse & { minimumAmountPerHour: string };

/** Whitelisted tokens matching `args` with their served prices, in chain, symbol, id order. */
async function rewardTokens(deps: ApiDeps, args: ListRewardTokensArgs): Promise<RewardTokenResponse[]> {
  const rows = await listRewardTokenRows(deps.pg, args);
  const tokens = await withPrices(deps, rows, new Date(nowSeconds(deps) * 1000));
  return tokens.map((t, i) => ({ ...t, minimumAmountPerHour: rows[i]!.minimum_amount_per_hour }));
}

/**
 * GET /v4/tokens/reward: every served chain's reward tokens, a map chainId → list (only chains with
 * at least one). Tables reward_token_min_amounts, tokens, token_prices.
 */
export function rewardTokensHandler(deps: ApiDeps): Handler<{ query: typeof rewardTokensQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    const byChain: Record<string, RewardTokenResponse[]> = {};
    for (const t of await rewardTokens(deps, { ...q, types: q.tokenTypes }))
      (byChain[String(t.chainId)] ??= []).push(t);
    ctx.body = byChain;
  };
}

/** GET /v4/tokens/reward/{chainId}: the chain's reward tokens (an empty list when it has none). */
export function rewardTokensOfChainHandler(
  deps: ApiDeps,
): Handler<{ params: typeof rewardChainParams; query: typeof rewardChainQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    ctx.body = await rewardTokens(deps, { ...q, chainId: ctx.state.params.chainId, types: q.tokenTypes });
  };
}
