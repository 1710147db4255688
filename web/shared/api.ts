import { createRateGate, holdAfterAnswer, type Release } from './rateGate.js';
import { saveFile } from './saveFile.js';

/** A non-2xx answer of the API, with the problem body's detail and field errors when present. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly errors: { field: string; message: string }[] = [],
  ) {
    super(message);
  }
}

/** True for the rejection of a request cancelled through its AbortSignal (a superseded view): never shown. */
export function isAbort(error: unknown): boolean {
  return (error as Error | undefined)?.name === 'AbortError';
}

/**
 * Below the API's default anonymous limit (10/s, fixed one-second windows), whenever the browser
 * sends what the page started (rateGate's delayBeforeNext); two to spare for a request the page does
 * not gate (an EventSource reconnecting by itself).
 */
const gate = createRateGate(8);
/**
 * Waits for a turn under the same budget as every apiFetch, for a request the page makes another way
 * (an EventSource): resolves when it may start (at once, if `signal` aborted meanwhile) with the
 * release to call once the request was answered (the stream opened) or failed.
 */
export function requestSlot(signal?: AbortSignal): Promise<Release> {
  return gate(signal);
}

/** Answers 429 are retried after Retry-After (another tab may share the caller's budget), this many times. */
const RETRIES_429 = 3;

export type Query = Record<string, string | number | boolean | undefined | null>;

/** `path?query` with empty values left out (the API answers 400 to empty list parameters). */
export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

const abortError = () => new DOMException('superseded', 'AbortError');

const sleep = (ms: number, signal?: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(abortError());
      },
      { once: true },
    );
  });

/** An answer's RateLimit-Remaining/-Reset: when the window is (nearly) used, hold the next starts until it resets. */
function noteRateLimit(res: Response): void {
  const remaining = res.headers.get('ratelimit-remaining');
  const reset = res.headers.get('ratelimit-reset');
  if (remaining === null || reset === null) return;
  // Requests sent and not answered yet take their share of the window this answer reports.
  const until = holdAfterAnswer(Number(remaining), Number(reset), gate.inFlight(), Date.now());
  if (until !== undefined) gate.holdUntil(until);
}

/** Calls the public API (same origin) and parses JSON; throws ApiError on a non-2xx answer, an AbortError when `init.signal` aborts. */
export async function apiFetch<T>(path: string, init: RequestInit = {}): Promise<T> {
  let res: Response;
  for (let attempt = 0; ; attempt++) {
    const release = await gate(init.signal ?? undefined);
    if (init.signal?.aborted) throw abortError();
    try {
      res = await fetch(path, { ...init, headers: { accept: 'application/json', ...(init.headers ?? {}) } });
    } finally {
      release();
    }
    noteRateLimit(res);
    if (res.status !== 429 || attempt >= RETRIES_429) break;
    await sleep(1000 * Math.min(10, Number(res.headers.get('retry-after')) || 1), init.signal);
  }
  const text = await res.text();
  const body = text ? JSON.parse(text) : null;
  if (!res.ok) throw new ApiError(res.status, body?.detail ?? `HTTP ${res.status}`, body?.errors ?? []);
  return body as T;
}

/**
 * GET `/v4…` with a query; `signal` cancels it (the request is not sent, or aborted in flight);
 * `fresh` asks the server again rather than the browser's cache (a reload after an event: the
 * answer is revalidated, so an unchanged one still costs only a 304).
 */
export function apiGet<T>(
  path: string,
  query?: Query,
  options: { headers?: Record<string, string>; signal?: AbortSignal; fresh?: boolean } = {},
): Promise<T> {
  return apiFetch<T>(withQuery(path, query), {
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.fresh ? { cache: 'no-cache' as const } : {}),
  });
}

/**
 * Downloads `path` (whose query names `format=csv`: a cached JSON answer of the same route cannot stand
 * in for it) under `filename`, through a temporary object URL; Accept says text/csv too.
 */
export async function downloadCsv(path: string, filename: string): Promise<void> {
  const release = await gate();
  const res = await fetch(path, { headers: { accept: 'text/csv' } }).finally(release);
  if (!res.ok) throw new ApiError(res.status, `CSV download failed (HTTP ${res.status})`);
  saveFile(await res.blob(), filename);
}
