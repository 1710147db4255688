// Integration suites that run alone, after the parallel part of `npm test` (scripts/test.sh): each touches
// something the workers share (a path of the work tree, the machine's CPU as what it measures), so another
// suite running beside it would change its answer or it would change another's. Each entry says why.
module.exports = [
  // `npm run build` rewrites dist/ and web/dist, which apps serving the default pages read.
  'test/integration/deploy/productionBuild.test.ts',
];
