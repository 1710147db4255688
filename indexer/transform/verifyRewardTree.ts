import { zeroHash, type Hex } from 'viem';
import { RewardTreeError } from '../../domain/rewardTree.js';
import { bytesHex } from '../../domain/rewardTreeLayout.js';
import type { Keccak } from '../../internal/keccak.js';
import type { RewardTreeFile } from '../decode/parseRewardTree.js';
import { layoutRewardTree, type RewardTreeLayout } from './layoutRewardTree.js';

/**
 * The checks a tree must pass before any of its rewards is stored:
 * - `leaves`: one entry per (recipient, token), so a tree can be built at all;
 * - `root`: the tree hashed with the Distributor's leaf and pair rules gives the on-chain root;
 * - `breakdowns`: each entry's breakdown amounts sum to its amount.
 */
export type RewardTreeCheck = 'leaves' | 'root' | 'breakdowns';

export type VerifyRewardTreeResult = {
  ok: boolean;
  /** Root computed from the entries; null when no tree could be built (`leaves` failed). */
  computedRoot: Hex | null;
  /** Number of non-zero leaves in the computed tree. */
  leaves: number;
  /** Checks that failed, in the order above; empty when ok. */
  failed: RewardTreeCheck[];
  /** One line per problem (the first few breakdown mismatches are named). */
  errors: string[];
  /** The tree laid out for storage (its proof material); null without a non-zero leaf or when `leaves` failed. */
  layout: RewardTreeLayout | null;
};

const MAX_NAMED = 5;

/** `n entries: a/t, b/t, …` naming the first few. */
function describe(entries: RewardTreeFile['rewards']): string {
  const named = entries
    .slice(0, MAX_NAMED)
    .map((r) => `${r.recipient}/${r.token}`)
    .join(', ');
  return `${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}: ${named}${entries.length > MAX_NAMED ? ', …' : ''}`;
}

/**
 * Pure (keccak passed in): verifies a published tree against the root the Distributor holds (docs/contracts.md#reward-tree).
 * @param onchainRoot the root of the TreeUpdated log (any case).
 * @returns ok only if the computed root equals `onchainRoot` and every breakdown sums to its entry.
 */
export function verifyRewardTree(keccak: Keccak, tree: RewardTreeFile, onchainRoot: string): VerifyRewardTreeResult {
  const failed: RewardTreeCheck[] = [];
  const errors: string[] = [];
  let computedRoot: Hex | null = null;
  let leaves = 0;
  let layout: RewardTreeLayout | null = null;
  try {
    layout = layoutRewardTree(keccak, tree.rewards);
    computedRoot = layout ? bytesHex(layout.top.root) : zeroHash;
    leaves = layout?.top.leafCount ?? 0;
    if (computedRoot !== onchainRoot.toLowerCase()) {
      failed.push('root');
      errors.push(`computed root ${computedRoot} differs from on-chain root ${onchainRoot.toLowerCase()}`);
    }
  } catch (error) {
    if (!(error instanceof RewardTreeError)) throw error;
    failed.push('leaves');
    errors.push(error.message);
  }
  const unbalanced = tree.rewards.filter(
    (r) => r.breakdowns.reduce((sum, b) => sum + BigInt(b.amount), 0n) !== BigInt(r.amount),
  );
  // A breakdown is keyed by (campaignId, reason) within its entry (breakdown key = leaf key + campaignId, reason).
  const repeated = tree.rewards.filter(
    (r) => new Set(r.breakdowns.map((b) => `${b.campaignId}\u0000${b.reason}`)).size !== r.breakdowns.length,
  );
  if (unbalanced.length) errors.push(`breakdowns do not sum to the amount for ${describe(unbalanced)}`);
  if (repeated.length) errors.push(`breakdowns repeat a (campaignId, reason) pair for ${describe(repeated)}`);
  if (unbalanced.length || repeated.length) failed.push('breakdowns');
  return { ok: failed.length === 0, computedRoot, leaves, failed, errors, layout };
}
