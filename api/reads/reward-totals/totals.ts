import { tokenDbId } from '../../../domain/ids.js';
import type { ApiDeps } from '../../deps.js';
import { NotFoundError } from '../../errors.js';
import { campaignTotalsAt, claimedOfToken, loadLiveTree, tokenTotalsAt, unclaimedOfCampaign } from '../rewardTotals.js';
import {
  hiddenOnChainCampaignIds,
  visibleOnChainCampaign,
  type CampaignVisibility,
} from '../../visibility/campaignVisibility.js';

/** A campaign's or a token's figures in the chain's live root (units as decimal strings). */
export type LiveTotals = { root: string | null; amount: string; count: number };

const sumOf = (values: readonly string[]) => values.reduce((a, v) => a + BigInt(v), 0n).toString();

/**
 * A campaign's total and recipients in the live root of `chainId` (per-tree totals,
 * api/reads/rewardTotals.ts). A campaign the caller may not see answers as one that does not exist:
 * a 404 when neither an indexed campaign nor the tree knows the id. Zeros without a live tree.
 */
export async function campaignLiveTotals(
  deps: ApiDeps,
  chainId: number,
  campaignId: string,
  visible: CampaignVisibility,
): Promise<LiveTotals> {
  const [hidden, campaign, live] = await Promise.all([
    hiddenOnChainCampaignIds(deps.pg, visible, chainId, [campaignId]),
    visibleOnChainCampaign(deps.pg, visible, chainId, campaignId),
    loadLiveTree(deps.pg, chainId),
  ]);
  const absent = () => new NotFoundError(`No rewards of campaign ${campaignId} on chain ${chainId}`);
  if (hidden.size) throw absent();
  const totals = live ? await campaignTotalsAt(deps.pg, chainId, campaignId, live.seq) : [];
  if (!campaign && !totals.length) throw absent();
  return {
    root: live?.root ?? null,
    amount: sumOf(totals.map((t) => t.amount)),
    count: totals.reduce((n, t) => n + t.recipients, 0),
  };
}

/**
 * A token's total and recipients in the live root of `chainId`, without what the campaigns hidden
 * from the caller hold of it (README "Campaign visibility": counts leave them out).
 */
export async function tokenLiveTotals(
  deps: ApiDeps,
  chainId: number,
  token: string,
  visible: CampaignVisibility,
): Promise<LiveTotals & { rewardTokenId: string }> {
  const rewardTokenId = tokenDbId(chainId, token);
  const live = await loadLiveTree(deps.pg, chainId);
  if (!live) return { root: null, amount: '0', count: 0, rewardTokenId };
  const hidden = await hiddenOnChainCampaignIds(deps.pg, visible, chainId);
  const t = await tokenTotalsAt(deps.pg, chainId, token, live.seq, hidden);
  return { root: live.root, amount: t.amount, count: t.recipients, rewardTokenId };
}

/**
 * Unclaimed amounts in the live root of `chainId`: per visible campaign (pro rata of its share of
 * each recipient's pending amount, unclaimedOfCampaign; campaigns hidden or unknown are left out
 * of the map, as hosted leaves out ids it does not know), or for a token (its visible total minus
 * what was claimed of it, never negative).
 */
export async function liveUnclaimed(
  deps: ApiDeps,
  chainId: number,
  target: { campaignIds: string[] } | { token: string },
  visible: CampaignVisibility,
): Promise<Record<string, string>> {
  const live = await loadLiveTree(deps.pg, chainId);
  if ('token' in target) {
    const token = target.token.toLowerCase();
    if (!live) return { [token]: '0' };
    const [totals, claimed] = await Promise.all([
      tokenLiveTotals(deps, chainId, token, visible),
      claimedOfToken(deps.pg, chainId, token),
    ]);
    const left = BigInt(totals.amount) - claimed;
    return { [token]: (left > 0n ? left : 0n).toString() };
  }
  const ids = [...new Set(target.campaignIds.map((c) => c.toLowerCase()))];
  const hidden = await hiddenOnChainCampaignIds(deps.pg, visible, chainId, ids);
  const out: Record<string, string> = {};
  for (const id of ids.filter((c) => !hidden.has(c))) {
    const [campaign, totals] = await Promise.all([
      visibleOnChainCampaign(deps.pg, visible, chainId, id),
      live ? campaignTotalsAt(deps.pg, chainId, id, live.seq) : [],
    ]);
    if (!campaign && !totals.length) continue;
    out[id] = live && totals.length ? await unclaimedOfCampaign(deps.pg, chainId, live.seq, id) : '0';
  }
  return out;
}
