/** The explorer page: every asset from `assets` (our own URLs), none from a CDN. */
export function graphiqlHtml(assets: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Campaign Rewards API: GraphQL explorer</title>
  <style>body { margin: 0; } #graphiql { height: 100vh; }</style>
  <link rel="stylesheet" href="${assets}/graphiql.min.css">
</head>
<body>
  <div id="graphiql">Loading the explorer…</div>
  <script src="${assets}/react.production.min.js"></script>
  <script src="${assets}/react-dom.production.min.js"></script>
  <script src="${assets}/graphiql.min.js"></script>
  <script src="${assets}/init.js"></script>
</body>
</html>
`;
}

const DEFAULT_QUERY = `# Opportunities with their campaigns and reward tokens
{
  opportunities(items: 5) {
    id
    name
    status
    tvl
    campaigns {
      id
      rewardToken { symbol }
    }
  }
}
`;

/** GraphiQL boot script (GraphiQL 3 UMD); a file rather than inline so a strict CSP allows it. */
export const GRAPHIQL_INIT_JS = `(function () {
  var fetcher = GraphiQL.createFetcher({ url: window.location.pathname });
  ReactDOM.createRoot(document.getElementById('graphiql')).render(
    React.createElement(GraphiQL, { fetcher: fetcher, defaultQuery: ${JSON.stringify(DEFAULT_QUERY)}, defaultEditorToolsVisibility: true })
  );
})();
`;
