import { createPageBoundaries, type PageBoundaries } from './pageBoundaries.js';
import { loadLiveRoot } from '../roots.js';
import type { ApiDeps } from '../../deps.js';
import { anchoredTreeSeq, campaignStoredAs, listCampaignRewards, listCampaignRewardsAnchored } from './repo.js';
import { hiddenOnChainCampaignIds, type CampaignVisibility } from '../../visibility/campaignVisibility.js';
import type { ListRewardsQuery } from './schema.js';
import { serializeReward } from './serialize.js';

/** One set of page boundaries per database (per API app). */
const boundaries = new WeakMap<object, PageBoundaries>();
function boundariesOf(db: object): PageBoundaries {
  let b = boundaries.get(db);
  if (!b) boundaries.set(db, (b = createPageBoundaries()));
  return b;
}

/** How a page of GET /v4/rewards was read: from the tree's campaign anchors, or walked from the first row (or a remembered page end). */
export type RewardsPath = 'anchors' | 'walk';

/**
 * Recipients of a campaign's rewards in the chain's LIVE root (loadLiveRoot), by descending amount.
 * Empty when there is no live root or its tree is not verified (only verified trees are served).
 * Shared by GET /v4/rewards and GraphQL `rewards`. Tables roots, distributor_events, reward_trees,
 * reward_anchored_trees, reward_campaign_anchors, reward_breakdowns, claimed_totals.
 */
export async function listRewardsPage(
  deps: ApiDeps,
  q: ListRewardsQuery,
  visible: CampaignVisibility,
): Promise<{ rows: ReturnType<typeof serializeReward>[]; path: RewardsPath | null }> {
  if ((await hiddenOnChainCampaignIds(deps.pg, visible, q.chainId, [q.campaignId])).size)
    return { rows: [], path: null };
  const live = await loadLiveRoot(deps.pg, q.chainId);
  if (live?.treeStatus !== 'verified') return { rows: [], path: null };
  // A tree the roots job anchored answers any page in a bucket's walk. Anchors name campaigns as stored
  // (on-chain ids: lower-case hex); an id in another case reads them unless the tree also stores it as given.
  const lower = q.campaignId.toLowerCase();
  const anchorsId =
    lower === q.campaignId || !(await campaignStoredAs(deps.pg, q.chainId, live.root, q.campaignId)) ? lower : null;
  const seq = anchorsId === null ? null : await anchoredTreeSeq(deps.pg, q.chainId, live.root);
  if (seq !== null) {
    const rows = await listCampaignRewardsAnchored(deps.pg, {
      ...q,
      campaignId: anchorsId!,
      root: live.root,
      seq,
      offset: q.page * q.items,
    });
    return { rows: rows.map(serializeReward), path: 'anchors' };
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
  return { rows: rows.map(serializeReward), path: 'walk' };
}

/** listRewardsPage's rows (GraphQL `rewards`). */
export async function listRewards(deps: ApiDeps, q: ListRewardsQuery, visible: CampaignVisibility) {
  return (await listRewardsPage(deps, q, visible)).rows;
}
