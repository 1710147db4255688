// The parallel part of `npm test` (scripts/test.sh): unit and integration suites spread over TEST_JOBS worker
// processes (default 2), each worker with its own test database (test/helpers/testConfig.ts, MOCHA_WORKER_ID)
// and its own devnets; the suites of test/serialSuites.cjs are left to .mocharc.serial.cjs.
const base = require('./.mocharc.cjs');

module.exports = {
  ...base,
  parallel: true,
  jobs: Number(process.env.TEST_JOBS ?? 2),
  ignore: require('./serialSuites.cjs'),
  require: ['test/helpers/parallelRun.ts', 'test/helpers/fileWallTimes.ts'],
};
