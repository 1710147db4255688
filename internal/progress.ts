import type { Logger } from './logger.js';

/**
 * Logs progress of a long run: done/total, rate and ETA, at most once per `intervalMs`
 * (and always on the last step). Runs of fewer than `minTotal` units stay quiet.
 */
export function createProgress({
  logger,
  total,
  unit,
  intervalMs = 2000,
  minTotal = 100,
}: {
  logger: Logger;
  total: number;
  unit: string;
  intervalMs?: number;
  minTotal?: number;
}) {
  const started = Date.now();
  let done = 0;
  let lastLog = 0;
  return {
    advance(n: number, fields: Record<string, unknown> = {}) {
      done += n;
      if (total < minTotal) return;
      const now = Date.now();
      if (now - lastLog < intervalMs && done < total) return;
      lastLog = now;
      const elapsed = (now - started) / 1000;
      const rate = elapsed > 0 ? done / elapsed : 0;
      const eta = rate > 0 ? Math.max(0, (total - done) / rate) : null;
      logger.info({
        msg: 'progress',
        unit,
        done,
        total,
        rate_per_s: Math.round(rate * 10) / 10,
        eta_s: eta === null ? null : Math.round(eta),
        ...fields,
      });
    },
  };
}
