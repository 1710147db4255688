import { bytesToHex, zeroHash, type Hex } from 'viem';
import { hashLeafBytes, NODE_BYTES } from '../../domain/rewardTreeLayout.js';
import type { Keccak } from '../../internal/keccak.js';
import type { RewardTreeEntry } from '../decode/parseRewardTree.js';
import type { RewardTreeLayout } from './layoutRewardTree.js';

/**
 * The checks a tree must pass before any of its rewards is stored:
 * - `leaves`: one entry per (recipient, token), so a tree can be built at all;
 * - `root`: the tree hashed with the Distributor's leaf and pair rules gives the on-chain root;
 * - `breakdowns`: each entry's breakdown amounts sum to its amount, one per (campaignId, reason).
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
  /** One line per problem (the first few entries of each kind are named). */
  errors: string[];
  /** The tree laid out for storage (its proof material); null without a non-zero leaf or when `leaves` failed. */
  layout: RewardTreeLayout | null;
};

const MAX_NAMED = 5;

/** Entries of one kind of problem: how many, and the first few named `recipient/token`. */
type Named = { count: number; names: string[] };
const noted = (): Named => ({ count: 0, names: [] });
const note = (n: Named, entry: RewardTreeEntry) => {
  n.count += 1;
  if (n.names.length < MAX_NAMED) n.names.push(`${entry.recipient}/${entry.token}`);
};
const describe = (n: Named) =>
  `${n.count} entr${n.count === 1 ? 'y' : 'ies'}: ${n.names.join(', ')}${n.count > MAX_NAMED ? ', …' : ''}`;

/** A tree's entries checked and hashed as they arrive, in memory that grows by 32 bytes a leaf. */
export type RewardTreeChecker = {
  /** Checks one entry's breakdowns and hashes its leaf (zero amounts have none). */
  add(entry: RewardTreeEntry): void;
  /** Entries added so far. */
  readonly entries: number;
  /** The non-zero leaves' hashes so far, packed in arrival order (a view), and their count. */
  hashes(): { packed: Uint8Array; count: number };
  /**
   * The verdict against the on-chain root, from the layout of the hashes (null without a leaf) and
   * the (recipient, token) pairs found more than once (`duplicates`, named; the caller finds them).
   */
  verdict(params: {
    onchainRoot: string;
    layout: RewardTreeLayout | null;
    duplicates: string[];
  }): VerifyRewardTreeResult;
};

/** Leaf hashes collected packed, 32 bytes a non-zero leaf (the memory a tree of any size needs). */
export type LeafHashes = {
  add(recipient: string, token: string, amount: bigint): void;
  /** The hashes so far in arrival order (a view), and their count. */
  hashes(): { packed: Uint8Array; count: number };
};

/** Pure (keccak passed in): an empty collection of leaf hashes; zero amounts are no leaf. */
export function createLeafHashes(keccak: Keccak): LeafHashes {
  let packed = new Uint8Array(1024 * NODE_BYTES);
  let count = 0;
  return {
    add(recipient, token, amount) {
      if (amount === 0n) return;
      if ((count + 1) * NODE_BYTES > packed.length) {
        const grown = new Uint8Array(packed.length * 2);
        grown.set(packed);
        packed = grown;
      }
      packed.set(hashLeafBytes(keccak, recipient, token, amount), count * NODE_BYTES);
      count += 1;
    },
    hashes: () => ({ packed: packed.subarray(0, count * NODE_BYTES), count }),
  };
}

/** Pure (keccak passed in): a checker for one tree. */
export function createRewardTreeChecker(keccak: Keccak): RewardTreeChecker {
  const leaves = createLeafHashes(keccak);
  let entries = 0;
  const unbalanced = noted();
  const repeated = noted();
  return {
    add(entry) {
      entries += 1;
      let sum = 0n;
      const pairs = new Set<string>();
      for (const b of entry.breakdowns) {
        sum += BigInt(b.amount);
        pairs.add(`${b.campaignId}\u0000${b.reason}`);
      }
      const amount = BigInt(entry.amount);
      if (sum !== amount) note(unbalanced, entry);
      // A breakdown is keyed by (campaignId, reason) within its entry (breakdown key = leaf key + campaignId, reason).
      if (pairs.size !== entry.breakdowns.length) note(repeated, entry);
      leaves.add(entry.recipient, entry.token, amount);
    },
    get entries() {
      return entries;
    },
    hashes: () => leaves.hashes(),
    verdict({ onchainRoot, layout, duplicates }) {
      const failed: RewardTreeCheck[] = [];
      const errors: string[] = [];
      let computedRoot: Hex | null = null;
      if (duplicates.length) {
        failed.push('leaves');
        errors.push(
          `duplicate leaf for ${duplicates.slice(0, MAX_NAMED).join(', ')}${duplicates.length > MAX_NAMED ? ', …' : ''}: sum amounts per (user, token) first`,
        );
      } else {
        computedRoot = layout ? bytesToHex(layout.top.root) : zeroHash;
        if (computedRoot !== onchainRoot.toLowerCase()) {
          failed.push('root');
          errors.push(`computed root ${computedRoot} differs from on-chain root ${onchainRoot.toLowerCase()}`);
        }
      }
      if (unbalanced.count) errors.push(`breakdowns do not sum to the amount for ${describe(unbalanced)}`);
      if (repeated.count) errors.push(`breakdowns repeat a (campaignId, reason) pair for ${describe(repeated)}`);
      if (unbalanced.count || repeated.count) failed.push('breakdowns');
      const { count } = leaves.hashes();
      return {
        ok: failed.length === 0,
        computedRoot,
        leaves: duplicates.length ? 0 : count,
        failed,
        errors,
        layout: duplicates.length ? null : layout,
      };
    },
  };
}
