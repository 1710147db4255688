import http from 'node:http';
import https from 'node:https';
import type { OutboundAllowance } from '../../internal/outboundAddress.js';
import { guardedLookup, resolveAllowed } from '../../internal/outboundGuard.js';

export type PostWebhookParams = {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allow: OutboundAllowance;
};

/** One attempt: delivered on a 2xx answer; else the status or the error says why not. */
export type PostWebhookResult = {
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
};

/** Bytes of a receiver's answer read at most (it is discarded; reading lets the connection close cleanly). */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * POSTs one delivery. The host is checked against the outbound guard before the request (an IP
 * literal never reaches a lookup) and again by the socket's lookup, which connects only to the
 * addresses it has just checked (internal/outboundGuard.ts). Redirects are not followed: a 3xx is a
 * failure like any other non-2xx. The whole attempt (connect, answer) is bounded by `timeoutMs`.
 * Never throws.
 */
export async function postWebhook(p: PostWebhookParams): Promise<PostWebhookResult> {
  const t0 = performance.now();
  const done = (statusCode: number | null, error: string | null): PostWebhookResult => ({
    delivered: error === null && statusCode !== null && statusCode >= 200 && statusCode < 300,
    statusCode,
    error,
    durationMs: Math.round(performance.now() - t0),
  });
  try {
    const url = new URL(p.url);
    await resolveAllowed(url.hostname, p.allow);
    const statusCode = await send(url, p);
    if (statusCode >= 300 && statusCode < 400)
      return done(statusCode, `HTTP ${statusCode}: redirects are not followed`);
    return done(statusCode, statusCode >= 200 && statusCode < 300 ? null : `HTTP ${statusCode}`);
  } catch (error) {
    return done(null, (error as Error).message || String(error));
  }
}

function send(url: URL, p: PostWebhookParams): Promise<number> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<number>((resolve, reject) => {
    const req = client.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(p.body), ...p.headers },
      lookup: guardedLookup(p.allow),
      agent: false,
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${p.timeoutMs} ms`)), p.timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.on('response', (res) => {
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) res.destroy();
      });
      const finish = () => {
        clearTimeout(timer);
        resolve(res.statusCode ?? 0);
      };
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
    });
    req.end(p.body);
  });
}
