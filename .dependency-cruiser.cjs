// The layers of the service (docs/architecture.md), enforced by test/unit/architecture/boundaries.test.ts:
//   internal/ (plumbing) ← domain/ (shared model, the read models every reader shares: domain/eventLog/,
//   domain/visibility/, the search projection domain/projection/, the job catalog and state domain/jobs/)
//   ← indexer/ | api/ (side by side) ← jobs/ (on top)
// Every rule counts every kind of import, dynamic `import()` included (dependency-cruiser marks them `dynamic`;
// no rule exempts them). jobs never import api/ and api/ never imports jobs/: what both read or write sits in domain/.
// contracts/ (stand-ins, devnet), scripts/, bench/ and test/ are never imported by production code.
const PRODUCTION = '^(api|indexer|jobs|domain|internal|sql|search-mappings)/';

// The API never runs job code: what it asks of the jobs process (a run now, a privacy change's refresh) is a row of
// job_run_requests that a job runner claims (domain/jobs/runRequests.ts, jobs/runRequestWorker.ts).

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
      name: 'jobs-on-top',
      severity: 'error',
      comment:
        'Nothing below jobs/ imports job code, statically or dynamically (the API reads and writes job state through domain/jobs/).',
      from: { path: '^(api|indexer|domain|internal|sql|search-mappings)/' },
      to: { path: '^jobs/' },
    },
    {
      name: 'route-families-are-leaves',
      severity: 'error',
      comment:
        'Route families (api/routes/<family>/) are leaves: a family never imports another; what two transports or families share sits in api/reads/<family>/ (filters, query builders, serializers, request schemas, use cases).',
      from: { path: '^api/routes/([^/]+)/' },
      to: { path: '^api/routes/[^/]+/', pathNot: '^api/routes/$1/' },
    },
    {
      name: 'graphql-not-routes',
      severity: 'error',
      comment: 'GraphQL resolvers call the read layer (api/reads/), never a route family.',
      from: { path: '^api/graphql/' },
      to: { path: '^api/routes/' },
    },
    {
      name: 'reads-below-transports',
      severity: 'error',
      comment:
        'The read layer (api/reads/) is called by REST handlers, GraphQL resolvers and jobs; it imports neither transport.',
      from: { path: '^api/reads/' },
      to: { path: '^api/(routes|graphql|middleware)/' },
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
