import { claimedEvent } from '../domain/abis/distributor.js';
import {
  blockHashesOf,
  decodeClaimedLog,
  type ClaimedEvent,
  type ClaimedLog,
} from '../indexer/decode/distributorEvents.js';
import { getLogsAdaptive } from '../indexer/fetch/getLogsAdaptive.js';
import { planRanges, type BlockRange } from '../indexer/fetch/planRanges.js';
import type { ChainClient } from '../internal/rpc.js';
import { loadBlockTimestamps } from '../indexer/store/blockTimestamps.js';
import { assertCanonical, canonicalHead, lockChainForWrite } from '../indexer/store/chainGuard.js';
import { upsertChains } from '../domain/tables/chains.js';
import { markClaimsFetched, upsertClaims } from '../indexer/store/claims.js';
import { getCursor, setCursor } from '../indexer/store/cursor.js';
import { toClaimRows } from '../indexer/transform/claims.js';
import { toClaimEvents } from '../indexer/transform/events.js';
import { appendEvents } from '../domain/tables/events.js';
import { withTransaction } from '../internal/pg.js';
import { createProgress } from '../internal/progress.js';
import type { Job, JobDeps, JobRange } from '../domain/jobs/types.js';
import { jobInfo } from '../domain/jobs/catalog.js';

const NAME = 'claims';

/**
 * Claimed logs of each chain's Distributor → one claims row per log (the delta paid by that call;
 * totals are sums, see claimedTotals). Steps per chain: plan (up to the canonical header head
 * stored by the blocks job) → fetch → decode/transform → persist (chain write lock, canonical
 * check, rows, claim.indexed events, cursor: one transaction per range); once the chain is caught up,
 * chains.last_claims_onchain_fetch_at is set.
 * Tables: claims, events, chains, cursors.
 */
export const syncClaims: Job = {
  ...jobInfo(NAME),
  async run(deps) {
    await upsertChains(deps.pg, deps.config.chains);
    const ranges: JobRange[] = [];
    let claims = 0;
    for (const chainClient of deps.rpc.values()) {
      if (deps.signal.aborted) break;
      const result = await indexClaims(deps, chainClient);
      ranges.push(...result.ranges);
      claims += result.claims;
    }
    return { ranges, counts: { claims } };
  },
};

async function indexClaims(deps: JobDeps, chainClient: ChainClient): Promise<{ ranges: JobRange[]; claims: number }> {
  const { chain } = chainClient;
  const head = await canonicalHead(deps.pg, chain.id);
  if (head === null) return { ranges: [], claims: 0 };
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
  const ranges: JobRange[] = [];
  let claims = 0;
  for (const range of planned) {
    if (deps.signal.aborted) return { ranges, claims };
    const events = await fetchClaims(chainClient, range);
    await withTransaction(deps.pg, async (tx) => {
      await lockChainForWrite(tx, chain.id);
      await assertCanonical(tx, chain.id, range.to, blockHashesOf(events));
      const rows = toClaimRows(
        events,
        await loadBlockTimestamps(
          tx,
          chain.id,
          events.map((e) => e.blockNumber),
        ),
      );
      await upsertClaims(tx, rows);
      await appendEvents(tx, toClaimEvents(rows));
      await setCursor(tx, NAME, chain.id, range.to);
    });
    claims += events.length;
    ranges.push({ chainId: chain.id, ...range });
    deps.logger[events.length ? 'info' : 'debug']({
      msg: 'batch persisted',
      chain_id: chain.id,
      from_block: range.from,
      to_block: range.to,
      claims: events.length,
    });
    progress.advance(range.to - range.from + 1, { chain_id: chain.id, to_block: range.to });
  }
  // Only a run that reached the stored head vouches for the claims being current.
  if (!deps.signal.aborted && (ranges.at(-1)?.to ?? cursor ?? -1) >= head) await markClaimsFetched(deps.pg, chain.id);
  return { ranges, claims };
}

async function fetchClaims({ chain, client }: ChainClient, range: BlockRange): Promise<ClaimedEvent[]> {
  const logs = await getLogsAdaptive({ client, address: chain.distributor, events: [claimedEvent], range });
  return logs.map((log) => decodeClaimedLog(chain.id, log as ClaimedLog));
}
