/** One answered (or failed) request of a load loop. */
export type LoadSample = {
  path: string;
  startedAt: number;
  endedAt: number;
  ms: number;
  status: number;
  contentType: string;
  service?: string;
  error?: string;
};

export type RequestLoad = {
  /** Samples recorded so far (a copy). */
  samples(): LoadSample[];
  /** Stops issuing requests and waits for those in flight. */
  stop(): Promise<LoadSample[]>;
};

export type StartRequestLoadParams = {
  baseUrl: string;
  /** Paths cycled through, one per request (with their query strings). */
  paths: readonly string[];
  /** Requests in flight at any time. */
  concurrency?: number;
  /** Client-side deadline of one request; a request past it is recorded with status 0. */
  timeoutMs?: number;
};

/**
 * A closed-loop HTTP read load against a running API: `concurrency` workers each issue the next
 * path as soon as their previous request is answered, and every request is recorded with its
 * status, content type, latency and (for problem bodies) the failing `service`.
 */
export function startRequestLoad({
  baseUrl,
  paths,
  concurrency = 4,
  timeoutMs = 10_000,
}: StartRequestLoadParams): RequestLoad {
  const samples: LoadSample[] = [];
  let stopped = false;
  let next = 0;
  const worker = async () => {
    while (!stopped) {
      const path = paths[next++ % paths.length]!;
      const startedAt = Date.now();
      const t0 = performance.now();
      try {
        const res = await fetch(baseUrl + path, { signal: AbortSignal.timeout(timeoutMs) });
        const contentType = res.headers.get('content-type') ?? '';
        const body = (await res.json().catch(() => null)) as { service?: string } | null;
        samples.push({
          path,
          startedAt,
          endedAt: Date.now(),
          ms: performance.now() - t0,
          status: res.status,
          contentType,
          ...(body?.service ? { service: body.service } : {}),
        });
      } catch (error) {
        samples.push({
          path,
          startedAt,
          endedAt: Date.now(),
          ms: performance.now() - t0,
          status: 0,
          contentType: '',
          error: error instanceof Error ? error.message : String(error),
        });
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  };
  const workers = Array.from({ length: concurrency }, worker);
  return {
    samples: () => [...samples],
    async stop() {
      stopped = true;
      await Promise.all(workers);
      return [...samples];
    },
  };
}

/** The p-th percentile (0–100) of latencies, nearest rank. */
export function percentileMs(samples: readonly { ms: number }[], p: number): number {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;
}
