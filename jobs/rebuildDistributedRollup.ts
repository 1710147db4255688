import {
  dropUndistributedCampaignNotes,
  isDistributedRollupFresh,
  writeDistributedRollup,
} from '../indexer/store/distributedFacetRollup.js';
import { jobInfo } from '../domain/jobs/catalog.js';
import type { Job, JobDeps, JobResult } from '../domain/jobs/types.js';

/**
 * Keeps the rollups of GET /v4/rewards/total/distributed fresh (#33): when a write they depend on
 * left a dirty marker, a chain's live root moved (a pending root's dispute period ended: the clock
 * alone, no write), or half the status horizon passed, rebuilds them whole from PostgreSQL (writeDistributedRollup); otherwise does
 * nothing. Until it has run, reads answer by the exact query, so it is never needed for correctness,
 * only for speed. Runs after the jobs whose writes it follows (roots, campaigns, tokens, prices).
 * Tables distributed_facet_rollup and the other rollups of writeDistributedRollup, distributed_rollup_state,
 * distributed_rollup_dirty, distributed_rollup_new_campaigns, distributed_rollup_clock.
 */
export const rebuildDistributedRollup: Job = {
  ...jobInfo('distributed'),
  run: (deps) => runDistributedRollup(deps),
};

/**
 * Rebuilds the rollup of every configured chain unless it is fresh; first drops the notes of new
 * campaigns no root distributed for (each read checks the notes).
 */
export async function runDistributedRollup(deps: Pick<JobDeps, 'config' | 'pg'>): Promise<JobResult> {
  const chainIds = deps.config.chains.map((c) => c.id);
  const dropped = await dropUndistributedCampaignNotes(deps.pg);
  if (await isDistributedRollupFresh(deps.pg, chainIds))
    return { ranges: [], counts: { rebuilt: 0, ...(dropped ? { campaignNotesDropped: dropped } : {}) } };
  const r = await writeDistributedRollup(deps.pg, chainIds);
  return {
    ranges: [],
    counts: {
      rebuilt: 1,
      rows: r.rows,
      statusRows: r.statusRows,
      opportunityRows: r.opportunityRows,
      dirtyMarkers: r.markers,
      campaignNotes: r.campaignNotes,
      ...(dropped ? { campaignNotesDropped: dropped } : {}),
      liveChains: r.liveChains,
    },
  };
}
