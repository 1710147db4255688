// The parallel part of `npm test` (scripts/test.sh): unit and integration suites spread over TEST_JOBS worker
// processes, each worker with its own test database (test/helpers/testConfig.ts, MOCHA_WORKER_ID) and its own
// devnets; the suites of test/serialSuites.cjs are left to .mocharc.serial.cjs. By default one worker more than
// the cores, at most 4: the suites wait often enough (processes starting, services down, polls) that on 2 cores
// a third worker fills the idle time (a run: 543 s in two workers, 81 % of the cores busy; 480 s in three, 92 %),
// and each worker holds devnets, a database and PostgreSQL connections of its own.
//
// Workers take files in list order. The chaos suites spend much of their time waiting (a service down for
// seconds, a lease to expire, processes to start): listed together, both workers would wait at once and the
// cores idle (200 of 1,100 core-seconds of a run). So one chaos suite comes after every `step` other files,
// longest first, and a worker is seldom in one while the other is too.
const { readdirSync } = require('node:fs');
const { availableParallelism } = require('node:os');
const { join } = require('node:path');
const base = require('./.mocharc.cjs');
const serial = require('./serialSuites.cjs');

const testFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
    )
    .sort();
// The folders of the whole suite's globs (test/unit/**/*.test.ts, …).
const files = base.spec
  .map((glob) => glob.split('/**/')[0])
  .flatMap(testFiles)
  .filter((f) => !serial.includes(f));
const isChaos = (f) => f.startsWith('test/integration/chaos/');
// Longest first (seconds on this machine, ci of stop 56); the others in path order.
const CHAOS_ORDER = ['killJobs', 'serviceOutages', 'killIndexer', 'killWebhookDelivery', 'manySchedulers'];
const rank = (f) => {
  const i = CHAOS_ORDER.findIndex((name) => f.endsWith(`/${name}.test.ts`));
  return i < 0 ? CHAOS_ORDER.length : i;
};
const chaos = files.filter(isChaos).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
const others = files.filter((f) => !isChaos(f));
const step = Math.ceil(others.length / (chaos.length + 1));
const ordered = others.flatMap((f, i) => (i % step === step - 1 && chaos.length ? [f, chaos.shift()] : [f]));

module.exports = {
  ...base,
  spec: [...ordered, ...chaos],
  parallel: true,
  jobs: Number(process.env.TEST_JOBS || Math.min(availableParallelism() + 1, 4)),
  require: ['test/helpers/parallelRun.ts', 'test/helpers/fileWallTimes.ts'],
};
