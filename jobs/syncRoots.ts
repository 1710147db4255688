import { rootLifecycleEvents } from '../domain/abis/distributor.js';
import { compareLogPosition } from '../domain/logPosition.js';
import {
  blockHashesOf,
  decodeRootLifecycleLog,
  type RootLifecycleEvent,
  type RootLifecycleLog,
} from '../indexer/decode/distributorEvents.js';
import { getLogsAdaptive } from '../indexer/fetch/getLogsAdaptive.js';
import { planRanges, type BlockRange } from '../indexer/fetch/planRanges.js';
import { readDisputers, readRejectedDisputeEnds } from '../indexer/fetch/readDisputeState.js';
import {
  createRewardTreeSource,
  RewardTreeFetchError,
  type RewardTreeSource,
} from '../indexer/fetch/createRewardTreeSource.js';
import { RewardTreeFormatError } from '../indexer/decode/parseRewardTree.js';
import type { ChainClient } from '../internal/rpc.js';
import { loadBlockTimestamps } from '../indexer/store/blockTimestamps.js';
import { assertCanonical, canonicalHead, lockChainForWrite } from '../indexer/store/chainGuard.js';
import { upsertChains } from '../domain/tables/chains.js';
import { getCursor, setCursor } from '../indexer/store/cursor.js';
import { listTreesToCheck, markTree, type RewardTreeRecord } from '../indexer/store/rewardTrees.js';
import { ingestRewardTree, type IngestRewardTreeResult } from './ingestRewardTree.js';
import { ensureRewardTrees, refreshRootState, upsertDistributorEvents, upsertRoots } from '../indexer/store/roots.js';
import { toRootRows } from '../indexer/transform/roots.js';
import { toRevokedRootEvents, toRootEvents } from '../indexer/transform/events.js';
import { appendEvents } from '../domain/tables/events.js';
import { announceLiveRoot } from '../indexer/store/liveRootAnnouncements.js';
import {
  forEachStoredLeaf,
  listTreesMissingProofMaterial,
  pruneProofMaterial,
  storeProofMaterial,
} from '../indexer/store/rewardProofMaterial.js';
import { createLeafHashes } from '../indexer/transform/checkRewardTree.js';
import { layoutInWorker } from '../indexer/transform/layoutInWorker.js';
import { loadKeccak, type Keccak } from '../internal/keccak.js';
import { bytesToHex } from 'viem';
import { withTransaction } from '../internal/pg.js';
import { anchorTree, listTreesToAnchor } from '../indexer/store/rewardAnchors.js';
import { createProgress } from '../internal/progress.js';
import type { Job, JobDeps, JobRange } from '../domain/jobs/types.js';
import { jobInfo } from '../domain/jobs/catalog.js';

const NAME = 'roots';
/** Bound on tree fetches per chain and run; the rest wait for the next run (least recently checked first). */
const MAX_TREE_CHECKS_PER_RUN = 10;

type Counts = {
  roots: number;
  distributor_events: number;
  trees_verified: number;
  trees_mismatch: number;
  trees_unavailable: number;
  rewards: number;
  proof_material_rebuilt: number;
  roots_announced_live: number;
  trees_anchored: number;
};

/**
 * Reward roots and their trees. Steps per chain: plan (up to the canonical header head stored by
 * the blocks job) → fetch TreeUpdated / Revoked / Disputed / DisputeResolved logs (and, for a
 * DisputeResolved(false), the recomputed endOfDisputePeriod read at its block) → decode/transform →
 * persist (chain write lock, canonical check, rows, derived revoked flags and
 * chains.end_of_dispute_period, pending trees, events (root.seen / disputed / dispute_resolved /
 * revoked), cursor: one transaction per range). Then, for up to
 * MAX_TREE_CHECKS_PER_RUN roots whose tree is pending or unavailable: stream it from
 * config.rewardTrees.source through ingestRewardTree (our document or Merkl's expanded leaves, summed
 * per (recipient, token); checked, staged, laid out in a worker, stored
 * by change with its proof material and marked verified in one transaction), or mark it mismatch
 * (logged at error level: the alert; counted as trees_mismatch) or unavailable (retried on a later
 * run). Rewards of a mismatched tree are never stored. Last, proof material is rebuilt for claimable
 * verified roots that lack it, and the live root is announced when it changed (root.live,
 * rewards.changed); then the kept trees get their campaign anchors (rewardAnchors.ts). Tables: roots, distributor_events, reward_trees,
 * reward_leaf_versions, reward_breakdown_versions, reward_tree_chunks, live_root_announcements, chains, cursors, events,
 * reward_campaign_anchors, reward_anchored_trees.
 */
export const syncRoots: Job = {
  ...jobInfo(NAME),
  async run(deps) {
    await upsertChains(deps.pg, deps.config.chains);
    const { source: location, maxBytes } = deps.config.rewardTrees;
    const source = location ? createRewardTreeSource(location, maxBytes ? { maxBytes } : {}) : null;
    const ranges: JobRange[] = [];
    const counts: Counts = {
      roots: 0,
      distributor_events: 0,
      trees_verified: 0,
      trees_mismatch: 0,
      trees_unavailable: 0,
      rewards: 0,
      proof_material_rebuilt: 0,
      roots_announced_live: 0,
      trees_anchored: 0,
    };
    const keccak = await loadKeccak();
    for (const chainClient of deps.rpc.values()) {
      if (deps.signal.aborted) break;
      ranges.push(...(await indexRoots(deps, chainClient, counts)));
      if (!deps.signal.aborted) await checkTrees(deps, chainClient.chain.id, source, keccak, counts);
      if (!deps.signal.aborted) await rebuildProofMaterial(deps, chainClient.chain.id, keccak, counts);
      if (!deps.signal.aborted) await announceLive(deps, chainClient.chain.id, counts);
      if (!deps.signal.aborted) await anchorTrees(deps, chainClient.chain.id, counts);
    }
    return { ranges, counts };
  },
};

/** The log-indexing half for one chain; returns the ranges committed. */
async function indexRoots(deps: JobDeps, chainClient: ChainClient, counts: Counts): Promise<JobRange[]> {
  const { chain } = chainClient;
  const head = await canonicalHead(deps.pg, chain.id);
  if (head === null) return [];
  const cursor = await getCursor(deps.pg, NAME, chain.id);
  const planned = planRanges({
    cursor,
    startBlock: chain.startBlock,
    head,
    confirmations: 0,
    maxRange: deps.config.indexer.maxLogRange,
    maxRanges: 1000,
  });
  const progress = createProgress({
    logger: deps.logger,
    total: planned.reduce((n, r) => n + r.to - r.from + 1, 0),
    unit: 'blocks',
  });
  const done: JobRange[] = [];
  for (const range of planned) {
    if (deps.signal.aborted) break;
    const events = await fetchRootLifecycleEvents(chainClient, range);
    const rejectedEnds = await readRejectedDisputeEnds(chainClient.client, chain.distributor, events);
    const disputers = await readDisputers(chainClient.client, chain.distributor, events);
    const written = await withTransaction(deps.pg, async (tx) => {
      await lockChainForWrite(tx, chain.id);
      await assertCanonical(tx, chain.id, range.to, blockHashesOf(events));
      const rows = toRootRows(
        events,
        await loadBlockTimestamps(
          tx,
          chain.id,
          events.map((e) => e.blockNumber),
        ),
        rejectedEnds,
        disputers,
      );
      await upsertRoots(tx, rows.roots);
      await upsertDistributorEvents(tx, rows.events);
      const revoked = await refreshRootState(tx, chain.id);
      await ensureRewardTrees(
        tx,
        chain.id,
        rows.roots.map((r) => r.root),
      );
      await appendEvents(tx, [...toRootEvents(rows), ...toRevokedRootEvents(chain.id, revoked)]);
      await setCursor(tx, NAME, chain.id, range.to);
      return rows;
    });
    counts.roots += written.roots.length;
    counts.distributor_events += written.events.length;
    done.push({ chainId: chain.id, ...range });
    deps.logger[events.length ? 'info' : 'debug']({
      msg: 'batch persisted',
      chain_id: chain.id,
      from_block: range.from,
      to_block: range.to,
      roots: written.roots.length,
      distributor_events: written.events.length,
    });
    progress.advance(range.to - range.from + 1, { chain_id: chain.id, to_block: range.to });
  }
  return done;
}

/**
 * Announces the chain's live root when it changed (a dispute period ended, a root was revoked or its
 * tree was just verified): `root.live` and the `rewards.changed` events of the leaves that differ
 * from the root announced before (indexer/store/liveRootAnnouncements.ts).
 */
async function announceLive(deps: JobDeps, chainId: number, counts: Counts): Promise<void> {
  const started = performance.now();
  const announced = await withTransaction(deps.pg, async (tx) => {
    await lockChainForWrite(tx, chainId);
    return announceLiveRoot(tx, chainId, deps.config.eventAnnouncements.rewardsChangedMax);
  });
  if (!announced) return;
  counts.roots_announced_live += 1;
  deps.logger.info({
    msg: 'live root announced',
    chain_id: chainId,
    ...announced,
    ms: Math.round(performance.now() - started),
  });
}

/** The four root-lifecycle events of a range, decoded, in chain order. */
async function fetchRootLifecycleEvents(
  { chain, client }: ChainClient,
  range: BlockRange,
): Promise<RootLifecycleEvent[]> {
  const logs = await getLogsAdaptive({ client, address: chain.distributor, events: rootLifecycleEvents, range });
  return logs.map((log) => decodeRootLifecycleLog(chain.id, log as RootLifecycleLog)).sort(compareLogPosition);
}

/** The tree-verification half for one chain: a bounded number of fetch → verify → persist rounds. */
async function checkTrees(
  deps: JobDeps,
  chainId: number,
  source: RewardTreeSource | null,
  keccak: Keccak,
  counts: Counts,
): Promise<void> {
  const todo = await listTreesToCheck(deps.pg, chainId, MAX_TREE_CHECKS_PER_RUN);
  if (!todo.length) return;
  if (!source) {
    deps.logger.warn({
      msg: 'reward trees waiting but no reward tree source is configured (REWARD_TREE_SOURCE)',
      chain_id: chainId,
      waiting: todo.length,
    });
    return;
  }
  for (const pending of todo) {
    if (deps.signal.aborted) return;
    const outcome = await checkTree(deps, source, keccak, pending, counts);
    if (outcome === 'aborted') return;
    counts[`trees_${outcome}`] += 1;
  }
}

type TreeOutcome = 'aborted' | 'verified' | 'mismatch' | 'unavailable';

async function checkTree(
  deps: JobDeps,
  source: RewardTreeSource,
  keccak: Keccak,
  { chainId, root, attempts }: RewardTreeRecord,
  counts: Counts,
): Promise<TreeOutcome> {
  const log = { chain_id: chainId, root, attempt: attempts + 1, source: source.location };
  const unavailable = async (error: string): Promise<TreeOutcome> => {
    await markTree(deps.pg, { chainId, root, status: 'unavailable', computedRoot: null, leaves: null, error });
    return 'unavailable';
  };
  let outcome: IngestRewardTreeResult;
  try {
    const document = await source.openTree({ chainId, root, signal: deps.signal });
    if (!document) {
      deps.logger.info({ msg: 'reward tree not published yet', ...log });
      return await unavailable('not published');
    }
    outcome = await ingestRewardTree(deps, { chainId, root, document, keccak, log });
  } catch (error) {
    if (deps.signal.aborted) return 'aborted';
    if (!(error instanceof RewardTreeFetchError || error instanceof RewardTreeFormatError)) throw error;
    // A malformed document is published content, not a transient fault: alert, but retry later too.
    deps.logger[error instanceof RewardTreeFormatError ? 'error' : 'warn']({
      msg: 'reward tree unavailable',
      ...log,
      err: error.message,
    });
    return await unavailable(error.message);
  }
  const { verdict, entries, format, rows } = outcome;
  if (!verdict.ok) {
    const error = verdict.errors.join('; ');
    deps.logger.error({
      msg: 'reward tree mismatch',
      ...log,
      format,
      computed_root: verdict.computedRoot,
      failed_checks: verdict.failed,
      err: error,
    });
    await markTree(deps.pg, {
      chainId,
      root,
      status: 'mismatch',
      computedRoot: verdict.computedRoot,
      leaves: verdict.leaves,
      error,
    });
    return 'mismatch';
  }
  counts.rewards += entries;
  deps.logger.info({ msg: 'reward tree verified', ...log, format, leaves: verdict.leaves, rewards: entries, rows });
  return 'verified';
}

/**
 * Proof material for the claimable verified trees that lack it (stored before it existed, or a root
 * claimable again after a revocation), rebuilt from their stored leaves and checked against the root.
 * Tables rewards, reward_trees, reward_tree_chunks, roots.
 */
async function rebuildProofMaterial(deps: JobDeps, chainId: number, keccak: Keccak, counts: Counts): Promise<void> {
  for (const { root, leaves } of await listTreesMissingProofMaterial(deps.pg, chainId)) {
    if (deps.signal.aborted) return;
    const hashes = createLeafHashes(keccak);
    await forEachStoredLeaf(deps.pg, chainId, root, (rows) => {
      for (const r of rows) hashes.add(r.recipient, r.token, BigInt(r.amount));
    });
    const { packed, count } = hashes.hashes();
    const layout = count ? await layoutInWorker(packed, count) : null;
    const computed = layout ? bytesToHex(layout.top.root) : null;
    if (computed !== root) {
      deps.logger.error({
        msg: 'stored leaves do not hash to their root',
        chain_id: chainId,
        root,
        computed_root: computed,
      });
      continue;
    }
    await withTransaction(deps.pg, async (tx) => {
      await storeProofMaterial(tx, { chainId, root, layout });
      await pruneProofMaterial(tx, chainId);
    });
    counts.proof_material_rebuilt += 1;
    deps.logger.info({ msg: 'proof material rebuilt', chain_id: chainId, root, leaves });
  }
}

/**
 * The campaign anchors of the chain's kept trees that lack them (a tree just stored, or anchors cut with
 * another bucket size), newest first: after the tree is served, so a first root is not held back by them
 * (GET /v4/rewards?campaignId walks from the first row until they are there).
 */
async function anchorTrees(deps: JobDeps, chainId: number, counts: Counts): Promise<void> {
  for (const seq of await listTreesToAnchor(deps.pg, chainId)) {
    if (deps.signal.aborted) return;
    const started = performance.now();
    const anchors = await anchorTree(deps.pg, chainId, seq);
    if (anchors === null) continue;
    counts.trees_anchored += 1;
    deps.logger.info({
      msg: 'campaign anchors built',
      chain_id: chainId,
      seq,
      anchors,
      ms: Math.round(performance.now() - started),
    });
  }
}
