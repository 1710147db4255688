module.exports = {
  'node-option': ['import=tsx'],
  spec: ['test/unit/**/*.test.ts'],
  timeout: 20000,
  reporter: 'test/helpers/summaryReporter.cjs',
};
