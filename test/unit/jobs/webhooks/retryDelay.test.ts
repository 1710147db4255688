import { expect } from 'chai';
import { loadConfig } from '../../../../internal/config.js';
import { shortestRetrySpanMs, webhookRetryDelay } from '../../../../jobs/webhooks/retryDelay.js';

describe('jobs/webhooks/retryDelay: backoff of failed deliveries', () => {
  const config = { retryBaseMs: 10_000, retryMaxMs: 3_600_000 };

  it('doubles from the base up to the max, within ±20 % jitter', () => {
    expect(webhookRetryDelay(1, config, () => 0.5)).to.equal(10_000);
    expect(webhookRetryDelay(3, config, () => 0.5)).to.equal(40_000);
    expect(webhookRetryDelay(30, config, () => 0.5)).to.equal(3_600_000);
    expect(webhookRetryDelay(2, config, () => 0)).to.equal(16_000);
    expect(webhookRetryDelay(2, config, () => 0.999999)).to.be.within(23_999, 24_000);
  });

  it('retries for at least 24 h before disabling, with the default configuration', () => {
    const { webhooks } = loadConfig({ NODE_ENV: 'test' });
    expect(shortestRetrySpanMs(webhooks)).to.be.greaterThan(24 * 3_600_000);
  });
});
