/**
 * An open-loop load generator for bench:load: requests are sent at evenly spaced scheduled times
 * (rate × seconds of them), whatever the answers do, over at most `connections` keep-alive sockets;
 * a request waiting for a free socket waits in the generator and that wait counts in its latency,
 * which runs from its scheduled time (no coordinated omission). autocannon's fixed rate sends each
 * connection's share of a second at the start of the second, so its p99 measured how long a burst
 * took to drain, not the service at that rate.
 */
import http from 'node:http';
import { serverTimingMs } from './benchParams.js';

export type PacedRequest = {
  kind: string;
  method: 'GET' | 'PUT';
  path: string;
  headers?: Record<string, string>;
  body?: string;
};

export type PacedResult = {
  /** Latencies of the answered requests, ascending (ms, from each request's scheduled time). */
  latencies: number[];
  answered: number;
  errors: number;
  non2xx: number;
  timeouts: number;
  /** Answered requests per second over the step, from its first scheduled time to the last answer. */
  achievedRps: number;
  /** The time the API says it spent (Server-Timing), per kind of request. */
  serverMs: Map<string, number[]>;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One request; resolves with its status and Server-Timing, rejects on a socket error or after `timeoutMs`. */
function send(
  agent: http.Agent,
  base: URL,
  m: PacedRequest,
  timeoutMs: number,
): Promise<{ status: number; serverMs: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: base.hostname,
        port: base.port,
        method: m.method,
        path: m.path,
        headers: m.headers ?? {},
        agent,
        timeout: timeoutMs,
      },
      (res) => {
        const serverMs = serverTimingMs(res.headers['server-timing']);
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, serverMs }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'TIMEOUT' })));
    req.on('error', reject);
    req.end(m.body);
  });
}

export async function runPaced({
  base,
  rps,
  seconds,
  connections,
  timeoutMs,
  next,
}: {
  base: string;
  rps: number;
  seconds: number;
  connections: number;
  timeoutMs: number;
  next: () => PacedRequest;
}): Promise<PacedResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const url = new URL(base);
  const total = Math.max(1, Math.round(rps * seconds));
  const interval = 1000 / rps;
  const result: PacedResult = {
    latencies: [],
    answered: 0,
    errors: 0,
    non2xx: 0,
    timeouts: 0,
    achievedRps: 0,
    serverMs: new Map(),
  };
  const t0 = performance.now();
  let lastAnswer = t0;
  const inFlight: Promise<void>[] = [];
  try {
    for (let i = 0; i < total; i++) {
      const due = t0 + i * interval;
      const wait = due - performance.now();
      if (wait >= 1) await sleep(wait);
      const m = next();
      inFlight.push(
        send(agent, url, m, timeoutMs).then(
          ({ status, serverMs }) => {
            lastAnswer = performance.now();
            result.answered += 1;
            result.latencies.push(lastAnswer - due);
            if (status < 200 || status >= 300) result.non2xx += 1;
            if (!Number.isFinite(serverMs)) return;
            const samples = result.serverMs.get(m.kind);
            if (samples) samples.push(serverMs);
            else result.serverMs.set(m.kind, [serverMs]);
          },
          (error: NodeJS.ErrnoException) => {
            if (error.code === 'TIMEOUT') result.timeouts += 1;
            else result.errors += 1;
          },
        ),
      );
    }
    await Promise.all(inFlight);
  } finally {
    agent.destroy();
  }
  result.latencies.sort((a, b) => a - b);
  result.achievedRps = result.answered / Math.max(seconds, (lastAnswer - t0) / 1000);
  return result;
}
