// Mocha's spec reporter plus, at the end, the files that took longest (their top-level suites' wall time,
// hooks included: where the suite's minutes go) and one closing line "N passed, N failed[, N skipped]" that
// CI reads. SLOWEST_FILES=0 leaves the list out.
const Mocha = require('mocha');
const path = require('node:path');

const { EVENT_RUN_END, EVENT_SUITE_BEGIN, EVENT_SUITE_END } = Mocha.Runner.constants;
const SLOWEST = Number(process.env.SLOWEST_FILES ?? 15);

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const started = new Map();
    const byFile = new Map();
    runner.on(EVENT_SUITE_BEGIN, (suite) => {
      if (suite.parent?.root && suite.file) started.set(suite, performance.now());
    });
    runner.on(EVENT_SUITE_END, (suite) => {
      const t0 = started.get(suite);
      if (t0 === undefined) return;
      started.delete(suite);
      const file = path.relative(process.cwd(), suite.file);
      byFile.set(file, (byFile.get(file) ?? 0) + (performance.now() - t0));
    });
    runner.once(EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats;
      if (SLOWEST > 0 && byFile.size) {
        const total = [...byFile.values()].reduce((a, b) => a + b, 0);
        const lines = [...byFile]
          .sort((a, b) => b[1] - a[1])
          .slice(0, SLOWEST)
          .map(([file, ms]) => `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`);
        process.stdout.write(
          `\nslowest files (of ${byFile.size}, ${(total / 1000).toFixed(0)} s in all):\n${lines.join('\n')}\n`,
        );
      }
      process.stdout.write(`\n${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}\n`);
    });
  }
}

module.exports = SummaryReporter;
