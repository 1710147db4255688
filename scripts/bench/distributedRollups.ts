import { writeDistributedRollup } from '../../indexer/store/distributedFacetRollup.js';
import { ROLLUP_TABLES } from '../../indexer/store/distributedRollupInserts.js';
import type { PgPool } from '../../internal/pg.js';
import { benchChainConfigs } from './searchData.js';

/**
 * What the `distributed` job does after the roots, campaigns and prices jobs: the rollups of
 * GET /v4/rewards/total/distributed*, built once a bench's data is in (else those reads answer
 * exactly), then analyzed. @returns a line saying what was built and how long it took.
 */
export async function buildDistributedRollups(pg: PgPool): Promise<string> {
  const r0 = performance.now();
  const rollup = await writeDistributedRollup(
    pg,
    benchChainConfigs().map((c) => c.id),
  );
  for (const table of ROLLUP_TABLES) await pg.query(`ANALYZE ${table}`);
  return `distributed rollups in ${((performance.now() - r0) / 1000).toFixed(1)} s: ${rollup.rows} facet rows, ${rollup.statusRows} status rows, ${rollup.opportunityRows} opportunity rows, ${rollup.liveChains} chains with a live root`;
}
