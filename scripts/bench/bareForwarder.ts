/**
 * The floor of any API in front of Elasticsearch, for bench:idle-gap: a bare node:http server that
 * answers GET /v4/opportunities/count by sending the same count (same query builder, same ES
 * client) and nothing else: no Koa, routing, validation, authentication or rate limiting.
 * Usage: node --import tsx scripts/bench/bareForwarder.ts <port> <es url> <index>; prints "ready".
 */
import http from 'node:http';
import { buildCountQuery } from '../../api/reads/opportunities/query.js';
import { createEsClient } from '../../internal/es.js';
import { toFilters } from './searchQueries.js';

const [port, esUrl, index] = process.argv.slice(2) as [string, string, string];
const es = createEsClient({ node: esUrl, requestTimeoutMs: 30_000 });

http
  .createServer((req, res) => {
    const t0 = process.hrtime.bigint();
    const params = Object.fromEntries(new URL(req.url ?? '/', 'http://bare').searchParams);
    es.count({
      index,
      ...buildCountQuery(toFilters(params), Math.floor(Date.now() / 1000), { testChainIds: [] }),
    }).then(
      (r) => {
        res.writeHead(200, {
          'content-type': 'application/json',
          'server-timing': `app;dur=${(Number(process.hrtime.bigint() - t0) / 1e6).toFixed(2)}`,
        });
        res.end(JSON.stringify(r.count));
      },
      (error: Error) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(error.message);
      },
    );
  })
  .listen(Number(port), '127.0.0.1', () => console.log('ready'));
