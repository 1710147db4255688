import { expect } from 'chai';
import { backoffDelay, RetriesExhaustedError, withRetry } from '../../../internal/retry.js';

class Transient extends Error {}
class Fatal extends Error {}
const fast = { baseDelayMs: 1, maxDelayMs: 4, shouldRetry: (e: unknown) => e instanceof Transient };

describe('internal/retry', () => {
  describe('backoffDelay', () => {
    it('doubles from the base delay with each retry', () => {
      expect(
        [1, 2, 3, 4].map((attempt) => backoffDelay({ attempt, baseDelayMs: 250, maxDelayMs: 60_000 })),
      ).to.deep.equal([250, 500, 1000, 2000]);
    });

    it('never exceeds maxDelayMs', () => {
      expect(backoffDelay({ attempt: 30, baseDelayMs: 250, maxDelayMs: 5000 })).to.equal(5000);
    });
  });

  describe('withRetry', () => {
    it('retries retryable errors and returns the first success', async () => {
      const delays: number[] = [];
      let calls = 0;
      const result = await withRetry(
        async (attempt) => {
          calls += 1;
          if (attempt < 3) throw new Transient('503');
          return 'ok';
        },
        { ...fast, retries: 3, onRetry: ({ delayMs }) => delays.push(delayMs) },
      );
      expect(result).to.equal('ok');
      expect(calls).to.equal(3);
      expect(delays).to.deep.equal([1, 2]);
    });

    it('rethrows a fatal error at once, unwrapped', async () => {
      let calls = 0;
      const error = await withRetry(
        async () => {
          calls += 1;
          throw new Fatal('404');
        },
        { ...fast, retries: 5 },
      ).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(Fatal);
      expect(calls).to.equal(1);
    });

    it('gives up after retries + 1 attempts with the last error as cause', async () => {
      let calls = 0;
      const error = await withRetry(
        async () => {
          calls += 1;
          throw new Transient(`503 #${calls}`);
        },
        { ...fast, retries: 2 },
      ).catch((e: unknown) => e);
      expect(calls).to.equal(3);
      expect(error).to.be.instanceOf(RetriesExhaustedError);
      expect((error as Error).message).to.equal('gave up after 3 attempts: 503 #3');
      expect((error as Error).cause).to.be.instanceOf(Transient);
    });

    it('tries once with retries 0', async () => {
      let calls = 0;
      await withRetry(
        async () => {
          calls += 1;
          throw new Transient('x');
        },
        { ...fast, retries: 0 },
      ).catch(() => {});
      expect(calls).to.equal(1);
    });

    it('stops waiting when its signal aborts', async () => {
      const controller = new AbortController();
      let calls = 0;
      const pending = withRetry(
        async () => {
          calls += 1;
          throw new Transient('x');
        },
        { ...fast, baseDelayMs: 10_000, maxDelayMs: 10_000, retries: 3, signal: controller.signal },
      );
      setTimeout(() => controller.abort(), 20);
      const error = await pending.catch((e: unknown) => e);
      expect((error as Error).name).to.equal('AbortError');
      expect(calls).to.equal(1);
    });
  });
});
