import { loadLiveRoot } from '../../reads/roots.js';
import type { ApiDeps } from '../../deps.js';
import { createPageBoundaries, type PageBoundaries } from './pageBoundaries.js';
import { anchoredTreeSeq, listCampaignRewards, listCampaignRewardsAnchored } from './repo.js';
import {
  campaignVisibilityOf,
  hiddenOnChainCampaignIds,
  type CampaignVisibility,
} from '../../visibility/campaignVisibility.js';
import type { Handler } from '../../validate.js';
import type { ListRewardsQuery, listRewardsQuery } from './schema.js';
import { serializeReward } from './serialize.js';

/**
 * Recipients of a campaign's rewards in the chain's LIVE root (loadLiveRoot), by descending amount.
 * Empty when there is no live root or its tree is not verified (only verified trees are served).
 * Shared by GET /v4/rewards and GraphQL `rewards`. Tables roots, distributor_events, reward_trees,
 * reward_anchored_trees, reward_campaign_anchors, reward_breakdowns, claimed_totals.
 */
export async function listRewards(deps: ApiDeps, q: ListRewardsQuery, visible: CampaignVisibility) {
  if ((await hiddenOnChainCampaignIds(deps.pg, visible, q.chainId, [q.campaignId])).size) return [];
  const live = await loadLiveRoot(deps.pg, q.chainId);
  if (live?.treeStatus !== 'verified') return [];
  // A tree the roots job anchored answers any page in a bucket's walk; ids exactly as stored (lower-case hex).
  const seq = q.campaignId === q.campaignId.toLowerCase() ? await anchoredTreeSeq(deps.pg, q.chainId, live.root) : null;
  if (seq !== null) {
    const rows = await listCampaignRewardsAnchored(deps.pg, { ...q, root: live.root, seq, offset: q.page * q.items });
    return rows.map(serializeReward);
  }
  // A root's amounts never change, so where its pages end can be kept (not with `hide`: claims change).
  const boundaries = q.hide ? null : boundariesOf(deps.pg);
  const query = `${q.chainId}:${live.root}:${q.campaignId}:${q.items}`;
  const near = boundaries?.before(query, q.page) ?? null;
  const rows = await listCampaignRewards(deps.pg, {
    ...q,
    root: live.root,
    after: near?.last ?? null,
    offset: (q.page - (near ? near.page + 1 : 0)) * q.items,
  });
  const last = rows.at(-1);
  if (boundaries && last && rows.length === q.items) boundaries.remember(query, q.page, last);
  return rows.map(serializeReward);
}

/** One set of page boundaries per database (per API app). */
const boundaries = new WeakMap<object, PageBoundaries>();
function boundariesOf(db: object): PageBoundaries {
  let b = boundaries.get(db);
  if (!b) boundaries.set(db, (b = createPageBoundaries()));
  return b;
}

/** GET /v4/rewards: listRewards over the validated query. */
export function listRewardsHandler(deps: ApiDeps): Handler<{ query: typeof listRewardsQuery }> {
  return async (ctx) => {
    ctx.body = await listRewards(deps, ctx.state.query, await campaignVisibilityOf(deps, ctx.state, true));
  };
}
