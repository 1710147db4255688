import { backoffDelay } from '../../internal/retry.js';
import type { WebhooksConfig } from '../../internal/webhooksConfig.js';

/**
 * Pure: the wait after the `failures`-th consecutive failed delivery: base·2^(failures−1) ms capped
 * at the max, times a jitter of ±20 % so receivers that failed together are not retried together.
 */
export function webhookRetryDelay(
  failures: number,
  config: Pick<WebhooksConfig, 'retryBaseMs' | 'retryMaxMs'>,
  random: () => number = Math.random,
): number {
  const delay = backoffDelay({ attempt: failures, baseDelayMs: config.retryBaseMs, maxDelayMs: config.retryMaxMs });
  return Math.round(delay * (0.8 + 0.4 * random()));
}

/**
 * Pure: the shortest time a failing webhook is retried before it is disabled (every jitter at its
 * low end): the sum of the waits between its WEBHOOKS_DISABLE_AFTER_FAILURES attempts.
 */
export function shortestRetrySpanMs(config: Omit<WebhooksConfig, 'allow'> | WebhooksConfig): number {
  let total = 0;
  for (let failures = 1; failures < config.disableAfterFailures; failures += 1)
    total += webhookRetryDelay(failures, config, () => 0);
  return total;
}
