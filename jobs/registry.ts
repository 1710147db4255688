import { publishSearch } from './publishSearch.js';
import { syncBlocks } from './syncBlocks.js';
import { syncCampaigns } from './syncCampaigns.js';
import { syncCampaignFees } from './syncCampaignFees.js';
import { syncTokens } from './syncTokens.js';
import { refreshPrices } from './refreshPrices.js';
import { syncRoots } from './syncRoots.js';
import { syncClaims } from './syncClaims.js';
import { computeMetrics } from './computeMetrics.js';
import { rebuildDistributedRollup } from './rebuildDistributedRollup.js';
import { syncBenchmarkRate } from './syncBenchmarkRate.js';
import { sweepRetention } from './sweepRetention.js';
import { deliverWebhooks } from './deliverWebhooks.js';
import type { Job } from '../domain/jobs/types.js';

/** Every job, in the order a full indexing pass runs them. Schedules come from config.schedules. */
export const JOBS: readonly Job[] = [
  syncBlocks,
  syncCampaigns,
  syncCampaignFees,
  syncRoots,
  syncClaims,
  syncTokens,
  refreshPrices,
  syncBenchmarkRate,
  computeMetrics,
  rebuildDistributedRollup,
  publishSearch,
  deliverWebhooks,
  sweepRetention,
];

export function findJob(name: string): Job | undefined {
  return JOBS.find((j) => j.name === name);
}
