// The layers of the service (docs/architecture.md), enforced by test/unit/architecture/boundaries.test.ts:
//   internal/ (plumbing) ← domain/ (shared model) ← indexer/ | api/ (side by side) ← jobs/ (on top)
// api/ reaches jobs only through their face, jobs/control/; jobs never import api/ (what both read sits
// in domain/); contracts/ (stand-ins, devnet), scripts/, bench/ and test/ are never imported by production code.
const PRODUCTION = '^(api|indexer|jobs|domain|internal|sql|search-mappings)/';
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules form no import cycle.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'api-not-indexer',
      severity: 'error',
      comment: 'The API reads PostgreSQL and Elasticsearch; the pipeline is not its code.',
      from: { path: '^api/' },
      to: { path: '^indexer/' },
    },
    {
      name: 'indexer-not-api',
      severity: 'error',
      comment: 'The pipeline never depends on the API.',
      from: { path: '^indexer/' },
      to: { path: '^api/' },
    },
    {
      name: 'jobs-not-api',
      severity: 'error',
      comment:
        'A job never imports an HTTP module (STYLE §10): rules every reader obeys (visibility, the event log) sit below both, in domain/.',
      from: { path: '^jobs/' },
      to: { path: '^api/' },
    },
    {
      name: 'indexer-not-jobs',
      severity: 'error',
      comment: 'Jobs sit on top of the pipeline, not below it.',
      from: { path: '^indexer/' },
      to: { path: '^jobs/' },
    },
    {
      name: 'jobs-face-only',
      severity: 'error',
      comment: 'Outside jobs/, only the face jobs/control/ may be imported.',
      from: { path: '^(api|domain|internal|sql|search-mappings)/' },
      to: { path: '^jobs/', pathNot: '^jobs/control/' },
    },
    {
      name: 'jobs-face-is-small',
      severity: 'error',
      comment: 'The face loads no job code statically (run-now imports it on use).',
      from: { path: '^jobs/control/' },
      to: { path: '^(jobs/(?!control/)|indexer/)', dependencyTypesNot: ['dynamic-import'] },
    },
    {
      name: 'domain-at-the-bottom',
      severity: 'error',
      comment: 'The domain is used by both sides and uses neither.',
      from: { path: '^domain/' },
      to: { path: '^(api|indexer|jobs|contracts|scripts|bench|test|web)/' },
    },
    {
      name: 'internal-is-plumbing',
      severity: 'error',
      comment: 'Plumbing depends on nothing of ours above it.',
      from: { path: '^internal/' },
      to: { path: '^(domain|api|indexer|jobs|contracts|scripts|bench|test|web)/' },
    },
    {
      name: 'production-not-test-code',
      severity: 'error',
      comment: 'Stand-ins, devnet helpers, scripts and tests are never part of the service.',
      from: { path: PRODUCTION },
      to: { path: '^(contracts|scripts|bench|test)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|web/dist|\\.data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.json'] },
  },
};
