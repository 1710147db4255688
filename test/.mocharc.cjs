// Whole suite (npm test): unit tests, then integration tests against real PostgreSQL,
// Elasticsearch and devnets started by scripts/test.sh and the suites themselves.
module.exports = {
  'node-option': ['import=tsx'],
  spec: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
  timeout: 120000,
  reporter: 'test/helpers/summaryReporter.cjs',
  exit: true,
};
