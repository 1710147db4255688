// Mocha's spec reporter plus, at the end, the files that took longest and one closing line
// "N passed, N failed[, N skipped]" that CI reads. A file's time is its top-level suites' wall time, hooks
// included: measured here when the run is serial, and in parallel mode by the workers' root hooks
// (test/helpers/fileWallTimes.ts, lines in TEST_FILE_TIMES). SLOWEST_FILES=0 leaves the list out. With
// TEST_SUMMARY_FILE, the counts are appended to that file as a JSON line instead of the closing line:
// scripts/test.sh runs mocha twice (parallel suites, then serial ones) and prints one closing line for both.
const { appendFileSync, existsSync, readFileSync } = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

const { EVENT_RUN_END, EVENT_SUITE_BEGIN, EVENT_SUITE_END } = Mocha.Runner.constants;
const SLOWEST = Number(process.env.SLOWEST_FILES ?? 15);

/** The { file, ms } lines the workers wrote (none when the file is missing). */
function readWallTimes(path) {
  if (!path || !existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const parallel = typeof runner.isParallelMode === 'function' && runner.isParallelMode();
    const started = new Map();
    const byFile = new Map();
    const add = (file, ms) => {
      const name = path.relative(process.cwd(), file);
      byFile.set(name, (byFile.get(name) ?? 0) + ms);
    };
    if (!parallel) {
      runner.on(EVENT_SUITE_BEGIN, (suite) => {
        if (suite.parent?.root && suite.file) started.set(suite, performance.now());
      });
      runner.on(EVENT_SUITE_END, (suite) => {
        const t0 = started.get(suite);
        if (t0 === undefined) return;
        started.delete(suite);
        add(suite.file, performance.now() - t0);
      });
    }
    runner.once(EVENT_RUN_END, () => {
      if (parallel) for (const { file, ms } of readWallTimes(process.env.TEST_FILE_TIMES)) add(file, ms);
      const { passes, failures, pending } = runner.stats;
      if (SLOWEST > 0 && byFile.size) {
        const total = [...byFile.values()].reduce((a, b) => a + b, 0);
        const lines = [...byFile]
          .sort((a, b) => b[1] - a[1])
          .slice(0, SLOWEST)
          .map(([file, ms]) => `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`);
        process.stdout.write(
          `\nslowest files (wall time, hooks included; of ${byFile.size}, ${(total / 1000).toFixed(0)} s in all):\n${lines.join('\n')}\n`,
        );
      }
      if (process.env.TEST_SUMMARY_FILE)
        appendFileSync(process.env.TEST_SUMMARY_FILE, `${JSON.stringify({ passes, failures, pending })}\n`);
      else process.stdout.write(`\n${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}\n`);
    });
  }
}

module.exports = SummaryReporter;
