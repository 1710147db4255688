import { ConfigError } from './errors.js';
import { type OutboundAllowance, parseOutboundAllowance } from './outboundAddress.js';

/** Webhooks (README "Webhooks"; issue #32), from the WEBHOOKS_* variables. */
export type WebhooksConfig = {
  /** Webhooks one owner may hold (WEBHOOKS_MAX_PER_OWNER). */
  maxPerOwner: number;
  /** Address ranges outbound deliveries may reach after all (WEBHOOKS_ALLOW_PRIVATE; none by default). */
  allow: OutboundAllowance;
  /** One delivery's time to answer (WEBHOOKS_TIMEOUT_MS). */
  timeoutMs: number;
  /** Retry n waits about base·2^(n−1) ms, at most max, ±20 % jitter (WEBHOOKS_RETRY_BASE_MS, WEBHOOKS_RETRY_MAX_MS). */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Consecutive failed deliveries that disable a webhook (WEBHOOKS_DISABLE_AFTER_FAILURES). */
  disableAfterFailures: number;
  /** Webhooks one delivering process serves at once (WEBHOOKS_CONCURRENCY). */
  concurrency: number;
  /** Days delivery attempts stay visible (WEBHOOK_DELIVERIES_RETENTION_DAYS). */
  deliveriesRetentionDays: number;
};

/** The validated WEBHOOKS_* variables → WebhooksConfig; a bad WEBHOOKS_ALLOW_PRIVATE entry stops startup by name. */
export function webhooksOf(v: Record<string, unknown>): WebhooksConfig {
  let allow: OutboundAllowance;
  try {
    allow = parseOutboundAllowance(v['WEBHOOKS_ALLOW_PRIVATE'] as string | undefined);
  } catch (error) {
    throw new ConfigError(`WEBHOOKS_ALLOW_PRIVATE: ${(error as Error).message}`);
  }
  return {
    maxPerOwner: v['WEBHOOKS_MAX_PER_OWNER'] as number,
    allow,
    timeoutMs: v['WEBHOOKS_TIMEOUT_MS'] as number,
    retryBaseMs: v['WEBHOOKS_RETRY_BASE_MS'] as number,
    retryMaxMs: v['WEBHOOKS_RETRY_MAX_MS'] as number,
    disableAfterFailures: v['WEBHOOKS_DISABLE_AFTER_FAILURES'] as number,
    concurrency: v['WEBHOOKS_CONCURRENCY'] as number,
    deliveriesRetentionDays: v['WEBHOOK_DELIVERIES_RETENTION_DAYS'] as number,
  };
}
