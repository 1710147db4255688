import { withTransaction } from '../internal/pg.js';
import type { Job } from './control/types.js';
import { jobInfo } from './control/catalog.js';

/**
 * Deletes what has outlived its use, once a day: job runs older than JOB_RUNS_RETENTION_DAYS
 * (default 30; the latest run and success of every job stay visible for that long), sign-in nonces
 * and identity-provider flows expired for an hour, revocations of tokens that have expired anyway,
 * and rate-limit windows older than a minute. One transaction; counts per table are recorded.
 * Tables: job_runs, auth_nonces, idp_flows, revoked_tokens, rate_limit_windows.
 */
export const sweepRetention: Job = {
  ...jobInfo('retention'),
  async run(deps) {
    const sweeps: [name: string, sql: string, values: unknown[]][] = [
      [
        'jobRuns',
        'DELETE FROM job_runs WHERE started_at < now() - make_interval(days => $1)',
        [deps.config.retention.jobRunsDays],
      ],
      ['nonces', "DELETE FROM auth_nonces WHERE expires_at < now() - interval '1 hour'", []],
      ['idpFlows', "DELETE FROM idp_flows WHERE expires_at < now() - interval '1 hour'", []],
      ['revokedTokens', 'DELETE FROM revoked_tokens WHERE expires_at < now()', []],
      ['rateLimitWindows', "DELETE FROM rate_limit_windows WHERE window_start < now() - interval '1 minute'", []],
    ];
    const counts = await withTransaction(deps.pg, async (tx) => {
      const out: Record<string, number> = {};
      for (const [name, sql, values] of sweeps) out[name] = (await tx.query(sql, values)).rowCount ?? 0;
      return out;
    });
    deps.logger.info({ msg: 'retention sweep', ...counts });
    return { ranges: [], counts };
  },
};
