import { expect } from 'chai';
import { createProgressBar, formatDuration, formatProgress } from '../../../../jobs/commands/progressBar.js';

/** A writable collecting what is written, optionally posing as a TTY. */
function sink(isTTY: boolean) {
  const chunks: string[] = [];
  return {
    stream: {
      isTTY,
      columns: 100,
      write: (chunk: string) => (chunks.push(chunk), true),
    } as unknown as NodeJS.WritableStream & { isTTY: boolean },
    chunks,
  };
}

describe('jobs/commands/progressBar', () => {
  describe('formatDuration', () => {
    it('uses seconds, then minutes and seconds, then hours and minutes', () => {
      expect([0, 42, 125, 3725].map(formatDuration)).to.deep.equal(['0s', '42s', '2m05s', '1h02m']);
    });

    it('says ? for an unknown duration', () => {
      expect(formatDuration(null)).to.equal('?');
      expect(formatDuration(Infinity)).to.equal('?');
    });
  });

  describe('formatProgress', () => {
    it('draws the bar, percentage, counts, rate and ETA', () => {
      expect(
        formatProgress({ label: 'backfill chain 1', unit: 'blocks', done: 500, total: 1000, ratePerSecond: 250 }, 10),
      ).to.equal('backfill chain 1 [#####-----]  50.0% 500/1000 blocks 250/s ETA 2s');
    });

    it('leaves the bar out at width 0 and shows an unknown rate and ETA', () => {
      expect(formatProgress({ label: 'reindex', unit: 'rows', done: 0, total: 10, ratePerSecond: null }, 0)).to.equal(
        'reindex   0.0% 0/10 rows ?/s ETA ?',
      );
    });

    it('caps at 100% and shows a finished ETA of 0s', () => {
      expect(formatProgress({ label: 'x', unit: 'rows', done: 12, total: 10, ratePerSecond: 0 }, 4)).to.equal(
        'x [####] 100.0% 12/10 rows 0.0/s ETA 0s',
      );
    });

    it('counts an empty total as done', () => {
      expect(formatProgress({ label: 'x', unit: 'rows', done: 0, total: 0, ratePerSecond: null }, 2)).to.equal(
        'x [##] 100.0% 0/0 rows ?/s ETA 0s',
      );
    });
  });

  describe('createProgressBar', () => {
    it('redraws one line in place on a TTY and ends it with a newline', () => {
      let clock = 0;
      const { stream, chunks } = sink(true);
      const bar = createProgressBar({ stream, label: 'job', unit: 'blocks', total: 100, now: () => clock });
      clock = 1000;
      bar.update(50);
      clock = 1050;
      bar.update(60); // within 100 ms of the last draw: skipped
      bar.finish();
      expect(chunks[0]).to.match(/^\rjob \[#+-+\] {2}50\.0% 50\/100 blocks 50\/s ETA 1s\x1b\[K$/);
      expect(chunks[1]).to.match(/^\rjob .* 60\/100 blocks/);
      expect(chunks[2]).to.equal('\n');
      expect(chunks).to.have.length(3);
    });

    it('writes plain lines at most once per interval when not a TTY', () => {
      let clock = 0;
      const { stream, chunks } = sink(false);
      const bar = createProgressBar({
        stream,
        label: 'job',
        unit: 'blocks',
        total: 100,
        intervalMs: 2000,
        now: () => clock,
      });
      for (const [t, done] of [
        [500, 10],
        [1000, 20],
        [2600, 30],
        [3000, 40],
      ] as const) {
        clock = t;
        bar.update(done);
      }
      bar.finish();
      expect(chunks).to.deep.equal([
        'job  10.0% 10/100 blocks 20/s ETA 5s\n',
        'job  30.0% 30/100 blocks 12/s ETA 6s\n',
        'job  40.0% 40/100 blocks 13/s ETA 5s\n',
      ]);
    });

    it('does not repeat the line already shown when finishing', () => {
      const { stream, chunks } = sink(false);
      const bar = createProgressBar({ stream, label: 'job', unit: 'rows', total: 2, now: () => 1000 });
      bar.update(2);
      bar.finish();
      expect(chunks).to.deep.equal(['job 100.0% 2/2 rows ?/s ETA 0s\n']);
    });
  });
});
