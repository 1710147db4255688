/**
 * A tiny HTTP front over N API processes, for tests, benchmarks and rehearsals (issue #34); production
 * uses nginx (deploy/nginx.conf) or the provider's load balancer. Round robin over `upstreams`; a
 * connection an upstream refuses (its process is gone) marks it down for `downMs` and, for an
 * idempotent request without a body, is retried on the next upstream, so only the requests in
 * flight on a dying process fail. Bodies and answers are piped as they come (Server-Sent Events
 * included), never buffered. Appends the peer to X-Forwarded-For like nginx's
 * `$proxy_add_x_forwarded_for` (run the API with TRUSTED_PROXIES=1 behind it).
 * Not http-proxy: unmaintained since 2020, and the balancing and retry would be ours anyway.
 * Usage: FRONT_PORT=3000 FRONT_UPSTREAMS=http://127.0.0.1:3001,http://127.0.0.1:3002 tsx scripts/roundRobinFront.ts
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

export type RoundRobinFrontParams = {
  /** Base URLs of the API processes (`http://host:port`). */
  upstreams: string[];
  host?: string;
  /** 0: a free port. */
  port?: number;
  /** How long an upstream that refused a connection is skipped (unless every upstream is). */
  downMs?: number;
};

export type FrontStats = {
  /** Requests answered by an upstream (any status). */
  forwarded: number;
  /** Refused connections retried on the next upstream. */
  retried: number;
  /** Requests the front answered 502, or cut off mid-answer, because their upstream failed. */
  failed: number;
  /** Requests sent to each upstream and not yet finished, by upstream URL. */
  inFlight: Record<string, number>;
  /** Requests sent to each upstream so far (refused ones included), by upstream URL. */
  sent: Record<string, number>;
};

export type RoundRobinFront = { url: string; stats(): FrontStats; close(): Promise<void> };

/** Methods RFC 9110 §9.2.2 calls idempotent: safe to send again after a refused connection. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
/** Hop-by-hop headers (RFC 9110 §7.6.1): they describe one connection, not the request. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade'];

const withoutHopByHop = (headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders => {
  const out: http.OutgoingHttpHeaders = { ...headers };
  for (const name of HOP_BY_HOP) delete out[name];
  return out;
};

const hasBody = (req: http.IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/** Starts the front; resolves once it listens. */
export async function startRoundRobinFront({
  upstreams,
  host = '127.0.0.1',
  port = 0,
  downMs = 1000,
}: RoundRobinFrontParams): Promise<RoundRobinFront> {
  if (upstreams.length === 0) throw new Error('the front needs at least one upstream');
  const targets = upstreams.map((u) => ({ base: u, url: new URL(u), downUntil: 0, inFlight: 0, sent: 0 }));
  const stats = { forwarded: 0, retried: 0, failed: 0 };
  let next = 0;

  /** The next upstream in turn that is not marked down (or the next in turn when all are). */
  const pick = () => {
    const now = Date.now();
    for (let i = 0; i < targets.length; i++) {
      const t = targets[next++ % targets.length]!;
      if (t.downUntil <= now) return t;
    }
    return targets[next++ % targets.length]!;
  };

  const fail = (res: http.ServerResponse) => {
    stats.failed += 1;
    if (res.headersSent) return void res.destroy();
    res.writeHead(502, { 'content-type': 'application/problem+json' });
    res.end(JSON.stringify({ type: 'about:blank', title: 'Bad Gateway', status: 502, detail: 'upstream failed' }));
  };

  const forward = (req: http.IncomingMessage, res: http.ServerResponse, attempt: number) => {
    const target = pick();
    const peer = req.socket.remoteAddress ?? '';
    const forwardedFor = req.headers['x-forwarded-for'];
    const headers = withoutHopByHop(req.headers);
    headers['x-forwarded-for'] = forwardedFor ? `${forwardedFor}, ${peer}` : peer;
    // A fresh connection per request (no keep-alive pool): a pooled socket to a process that just
    // died fails as a reset, indistinguishable from a request it was running; a new one is refused.
    const upstream = http.request({
      host: target.url.hostname,
      port: target.url.port,
      method: req.method,
      path: req.url,
      headers,
      agent: false,
    });
    const retriable = IDEMPOTENT.has(req.method ?? '') && !hasBody(req);
    let answered = false;
    target.inFlight += 1;
    target.sent += 1;
    upstream.on('close', () => void (target.inFlight -= 1));
    upstream.on('response', (answer) => {
      answered = true;
      stats.forwarded += 1;
      res.writeHead(answer.statusCode ?? 502, withoutHopByHop(answer.headers));
      res.flushHeaders(); // an event stream's headers go out before its first event
      answer.pipe(res);
      // The upstream died mid-answer: cut the caller's connection too, so it sees a failure, not a short body.
      answer.on('close', () => {
        if (!answer.complete) fail(res);
      });
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (answered) return;
      if (error.code === 'ECONNREFUSED') {
        target.downUntil = Date.now() + downMs;
        if (retriable && attempt + 1 < targets.length) {
          stats.retried += 1;
          return forward(req, res, attempt + 1);
        }
      }
      fail(res);
    });
    // The caller went away (a closed event stream): end the upstream request too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    if (retriable) upstream.end();
    else req.pipe(upstream);
  };

  const server = http.createServer((req, res) => forward(req, res, 0));
  server.requestTimeout = 0; // event streams last as long as their caller wants
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${bound}`,
    stats: () => ({
      ...stats,
      inFlight: Object.fromEntries(targets.map((t) => [t.base, t.inFlight])),
      sent: Object.fromEntries(targets.map((t) => [t.base, t.sent])),
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const upstreams = (process.env['FRONT_UPSTREAMS'] ?? '').split(',').filter(Boolean);
  const front = await startRoundRobinFront({
    upstreams,
    host: process.env['FRONT_HOST'] ?? '127.0.0.1',
    port: Number(process.env['FRONT_PORT'] ?? 3000),
  });
  console.log(JSON.stringify({ msg: 'front listening', url: front.url, upstreams }));
}
