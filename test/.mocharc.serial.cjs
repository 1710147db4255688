// The serial part of `npm test` (scripts/test.sh): the suites of test/serialSuites.cjs, one after the other,
// once the parallel part has ended.
const base = require('./.mocharc.cjs');

module.exports = { ...base, spec: require('./serialSuites.cjs') };
