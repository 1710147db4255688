import { RewardTreeUnavailableError } from '../errors.js';
import type { PgClient, PgPool } from '../../internal/pg.js';
import { type LiveRootRecord, loadLiveRoot } from './roots.js';

/**
 * The live root whose rewards a reward read serves on `chainId` (loadLiveRoot, at the chain's
 * indexed time), when its tree is verified and stored. Null when the chain has no live root or the
 * live root is the zero root: nothing was distributed, so an empty answer is true.
 * @throws RewardTreeUnavailableError (503, `Retry-After`) when the live root's tree is not stored
 *   (pending, unavailable, mismatch): its rewards are unknown, and an empty list would read as
 *   "nothing earned" (issue #42). Tables roots, reward_trees, distributor_events.
 */
export async function loadServedRoot(db: PgPool | PgClient, chainId: number): Promise<LiveRootRecord | null> {
  const live = await loadLiveRoot(db, chainId);
  if (!live || live.treeStatus === null) return null;
  if (live.treeStatus !== 'verified') throw new RewardTreeUnavailableError(chainId, live.root, live.treeStatus);
  return live;
}
