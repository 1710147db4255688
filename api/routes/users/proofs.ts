import type { Address, Hex } from 'viem';
import { buildRewardTree, rewardTreeKey } from '../../../domain/rewardTree.js';
import { loadRewardLeaves } from '../../reads/rewardLeaves.js';
import type { PgPool } from '../../../internal/pg.js';

/** Proofs of one verified tree, by rewardTreeKey(user, token). */
export type TreeProofs = { proofOf(user: string, token: string): Hex[] | undefined };

/** Thrown when the stored leaves of a root no longer hash to that root (never expected for a verified tree). */
export class ProofRootMismatchError extends Error {
  override name = 'ProofRootMismatchError';
}

export type ProofCache = { get(params: { chainId: number; root: string }): Promise<TreeProofs> };

/**
 * In-memory proofs per (chain, root), computed with buildRewardTree over the root's stored leaves.
 * A root's content never changes, so entries never go stale; the least recently used are dropped
 * beyond `max`. Concurrent requests for the same root share one computation.
 */
export function createProofCache({ db, max = 16 }: { db: PgPool; max?: number }): ProofCache {
  const entries = new Map<string, Promise<TreeProofs>>();
  const build = async (chainId: number, root: string): Promise<TreeProofs> => {
    const leaves = await loadRewardLeaves(db, { chainId, root });
    const tree = buildRewardTree(
      leaves.map((l) => ({ user: l.recipient as Address, token: l.token as Address, amount: BigInt(l.amount) })),
    );
    if (tree.root.toLowerCase() !== root.toLowerCase())
      throw new ProofRootMismatchError(`stored leaves of ${root} on chain ${chainId} hash to ${tree.root}`);
    return { proofOf: (user, token) => tree.proofs.get(rewardTreeKey(user as Address, token as Address)) };
  };
  return {
    get({ chainId, root }) {
      const key = `${chainId}:${root.toLowerCase()}`;
      let hit = entries.get(key);
      if (hit) entries.delete(key);
      else
        hit = build(chainId, root).catch((err: unknown) => {
          entries.delete(key);
          throw err;
        });
      entries.set(key, hit);
      while (entries.size > max) entries.delete(entries.keys().next().value!);
      return hit;
    },
  };
}
