import { Writable } from 'node:stream';
import { expect } from 'chai';
import { pino } from 'pino';
import { createProgress } from '../../../internal/progress.js';

/** A pino logger writing JSON lines into `lines`. */
function memoryLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('jobs/progress', () => {
  describe('createProgress', () => {
    const realNow = Date.now;
    let clock = 0;
    beforeEach(() => {
      clock = 1_000_000;
      Date.now = () => clock;
    });
    afterEach(() => {
      Date.now = realNow;
    });

    it('logs done, total, rate and eta with the unit and the given fields', async () => {
      const { logger, lines } = memoryLogger();
      const progress = createProgress({ logger, total: 1000, unit: 'blocks' });
      clock += 10_000;
      progress.advance(100, { chain_id: 31337, to_block: 99 });
      await flush();
      expect(lines).to.have.length(1);
      expect(lines[0]).to.include({
        level: 30,
        msg: 'progress',
        unit: 'blocks',
        done: 100,
        total: 1000,
        rate_per_s: 10,
        eta_s: 90,
        chain_id: 31337,
        to_block: 99,
      });
    });

    it('reports a null eta while no time has passed', async () => {
      const { logger, lines } = memoryLogger();
      createProgress({ logger, total: 500, unit: 'blocks' }).advance(10);
      await flush();
      expect(lines[0]).to.include({ done: 10, total: 500, eta_s: null });
    });

    it('logs at most once per interval, and always on the last step', async () => {
      const { logger, lines } = memoryLogger();
      const progress = createProgress({ logger, total: 300, unit: 'blocks', intervalMs: 2000 });
      clock += 1000;
      progress.advance(100); // first step: logged
      clock += 500;
      progress.advance(100); // within the interval: quiet
      clock += 500;
      progress.advance(100); // last step: logged although within the interval
      await flush();
      expect(lines.map((l) => l['done'])).to.deep.equal([100, 300]);
      expect(lines[1]).to.include({ total: 300, eta_s: 0 });
    });

    it('logs again once the interval has passed', async () => {
      const { logger, lines } = memoryLogger();
      const progress = createProgress({ logger, total: 1000, unit: 'blocks', intervalMs: 2000 });
      clock += 1000;
      progress.advance(100);
      clock += 2000;
      progress.advance(100);
      await flush();
      expect(lines.map((l) => l['done'])).to.deep.equal([100, 200]);
    });

    it('stays quiet when the total is below minTotal, even when done', async () => {
      const { logger, lines } = memoryLogger();
      const progress = createProgress({ logger, total: 99, unit: 'blocks' });
      clock += 5000;
      progress.advance(50);
      progress.advance(49);
      const custom = createProgress({ logger, total: 10, unit: 'campaigns', minTotal: 11 });
      custom.advance(10);
      await flush();
      expect(lines).to.deep.equal([]);
    });

    it('logs small runs when minTotal allows them', async () => {
      const { logger, lines } = memoryLogger();
      createProgress({ logger, total: 5, unit: 'campaigns', minTotal: 1 }).advance(5);
      await flush();
      expect(lines).to.have.length(1);
      expect(lines[0]).to.include({ unit: 'campaigns', done: 5, total: 5 });
    });
  });
});
