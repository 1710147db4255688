module.exports = {
  'node-option': ['import=tsx'],
  spec: ['test/integration/**/*.test.ts'],
  timeout: 120000,
  reporter: 'test/helpers/summaryReporter.cjs',
  exit: true,
};
