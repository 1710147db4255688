import type { Keccak } from '../../internal/keccak.js';
import type { RewardTreeFile } from '../decode/parseRewardTree.js';
import { createRewardTreeChecker, type VerifyRewardTreeResult } from './checkRewardTree.js';
import { layoutHashes } from './layoutRewardTree.js';
import { sortNodes } from '../../domain/rewardTreeLayout.js';

export type { RewardTreeCheck, VerifyRewardTreeResult } from './checkRewardTree.js';

/**
 * Pure (keccak passed in): verifies a tree held in memory against the root the Distributor holds
 * (docs/contracts.md#reward-tree), with the checks of checkRewardTree.ts, on this thread: for small
 * trees (tests, tools). The roots job streams trees instead (jobs/syncRoots.ts ingestRewardTree).
 * @param onchainRoot the root of the TreeUpdated log (any case).
 */
export function verifyRewardTree(keccak: Keccak, tree: RewardTreeFile, onchainRoot: string): VerifyRewardTreeResult {
  const checker = createRewardTreeChecker(keccak);
  const seen = new Set<string>();
  const duplicates: string[] = [];
  for (const entry of tree.rewards) {
    const key = `${entry.recipient}-${entry.token}`.toLowerCase();
    if (seen.has(key)) duplicates.push(key);
    seen.add(key);
    checker.add(entry);
  }
  const { packed, count } = checker.hashes();
  const layout = count && !duplicates.length ? layoutHashes(keccak, sortNodes(packed)) : null;
  return checker.verdict({ onchainRoot, layout, duplicates });
}
