import type { Config } from '../internal/config.js';
import { deleteInBatches } from '../internal/deleteInBatches.js';
import { createProgress } from '../internal/progress.js';
import { deleteUnusedConfigs, planConfigSweep, type ConfigSweepKey } from '../domain/tables/campaignConfigs.js';
import type { Job, JobDeps } from '../domain/jobs/types.js';
import { jobInfo } from '../domain/jobs/catalog.js';

/** Rows per statement: a batch's locks and WAL stay small whatever the backlog (issue #29 L2). */
export const RETENTION_BATCH = 1000;

/** Days of hourly price candles kept (GET /v4/prices/history?grain=hour answers within them). */
export const HOURLY_PRICES_RETENTION_DAYS = 90;

type RowSweep = { name: string; table: string; where: string; params: unknown[] };

/** What outlives its use in each table (the predicates are read by their tables' expiry indexes). */
const rowSweeps = (config: Config): RowSweep[] => [
  {
    name: 'jobRuns',
    table: 'job_runs',
    where: 'started_at < now() - make_interval(days => $1)',
    params: [config.retention.jobRunsDays],
  },
  {
    name: 'jobRunRequests',
    table: 'job_run_requests',
    where: 'requested_at < now() - make_interval(days => $1)',
    params: [config.retention.jobRunsDays],
  },
  // An hour past expiry, so a login racing its nonce's expiry is told "expired", not "unknown".
  {
    name: 'events',
    table: 'events',
    where: 'created_at < now() - make_interval(days => $1)',
    params: [config.retention.eventsDays],
  },
  {
    name: 'webhookDeliveries',
    table: 'webhook_deliveries',
    where: 'created_at < now() - make_interval(days => $1)',
    params: [config.webhooks.deliveriesRetentionDays],
  },
  { name: 'nonces', table: 'auth_nonces', where: "expires_at < now() - interval '1 hour'", params: [] },
  { name: 'idpFlows', table: 'idp_flows', where: "expires_at < now() - interval '1 hour'", params: [] },
  { name: 'revokedTokens', table: 'revoked_tokens', where: 'expires_at < now()', params: [] },
  // Hourly price candles serve recent charts (#33); the daily ones are kept for good.
  {
    name: 'hourlyPrices',
    table: 'token_price_hourly',
    where: `hour < now() - interval '${HOURLY_PRICES_RETENTION_DAYS} days'`,
    params: [],
  },
  {
    name: 'rateLimitWindows',
    table: 'rate_limit_windows',
    where: "window_start < now() - interval '1 minute'",
    params: [],
  },
];

/**
 * Deletes what has outlived its use, once a day: job runs older than JOB_RUNS_RETENTION_DAYS
 * (default 30; the latest run and success of every job stay visible for that long), events older than
 * EVENTS_RETENTION_DAYS (default 7), webhook delivery attempts older than WEBHOOK_DELIVERIES_RETENTION_DAYS
 * (default 7), sign-in nonces
 * and identity-provider flows expired for an hour, revocations of tokens that have expired anyway,
 * rate-limit windows older than a minute, hourly price candles older than HOURLY_PRICES_RETENTION_DAYS, and stored configurations no campaign uses, last stored
 * CONFIG_STORE_UNASSOCIATED_TTL_DAYS ago (default 7; see configInUseSql). Every table is swept in
 * batches of RETENTION_BATCH rows, each committing on its own, with progress logged against the
 * rows found old at the start; an abort stops between batches. Counts per table are recorded.
 * Tables: job_runs, events, webhook_deliveries, auth_nonces, idp_flows, revoked_tokens, token_price_hourly, rate_limit_windows, campaign_configs.
 */
export const sweepRetention: Job = {
  ...jobInfo('retention'),
  async run(deps) {
    const sweeps = rowSweeps(deps.config);
    let total = 0;
    for (const s of sweeps)
      total += (
        await deps.pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${s.table} WHERE ${s.where}`, s.params)
      ).rows[0]!.n;
    const plan = await planConfigSweep(deps.pg, deps.config.configStore.unassociatedTtlDays);
    total += plan.candidates;
    const progress = createProgress({ logger: deps.logger, total, unit: 'rows' });
    const counts: Record<string, number> = {};
    for (const s of sweeps)
      counts[s.name] = await deleteInBatches({
        db: deps.pg,
        ...s,
        batchSize: RETENTION_BATCH,
        signal: deps.signal,
        onBatch: (n) => progress.advance(n, { table: s.table }),
      });
    counts['unusedConfigs'] = await sweepUnusedConfigs(deps, plan.cutoff, (n) =>
      progress.advance(n, { table: 'campaign_configs' }),
    );
    deps.logger.info({ msg: 'retention sweep', ...counts });
    return { ranges: [], counts };
  },
};

/** Walks the configurations older than `cutoff` a batch at a time; `onScanned` gets each batch's size. */
async function sweepUnusedConfigs(deps: JobDeps, cutoff: string, onScanned: (n: number) => void): Promise<number> {
  let after: ConfigSweepKey | null = null;
  let deleted = 0;
  while (!deps.signal.aborted) {
    const batch = await retryOnForeignKey(() =>
      deleteUnusedConfigs(deps.pg, { cutoff, after, batchSize: RETENTION_BATCH }),
    );
    deleted += batch.deleted;
    onScanned(batch.scanned);
    if (!batch.last || batch.scanned < RETENTION_BATCH) break;
    after = batch.last;
  }
  return deleted;
}

/** Runs a batch again when a row it chose was attached meanwhile (foreign_key_violation; see deleteUnusedConfigs). */
async function retryOnForeignKey<T>(batch: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await batch();
    } catch (error) {
      if ((error as { code?: string }).code !== '23503' || attempt >= attempts) throw error;
    }
  }
}
