import { writeInOneRoundTrip, type PgPool } from '../../internal/pg.js';

/** Claims `n` hits of `bucket` in the window starting at `windowStart` (epoch seconds); resolves with the window's count after the claim. */
export type ClaimQuota = (bucket: string, windowStart: number, n: number) => Promise<number>;

/** What one request learns: whether it may pass, and how much of the window's limit is left (approximate across processes). */
export type QuotaDecision = { allowed: boolean; remaining: number };

/** A lease spans this share of a limit at most, so idle leases of several processes waste little of a window. */
export const LEASE_SHARE = 20;

type Lease = {
  window: number;
  left: number /** the window's shared count when last claimed */;
  total: number;
  exhausted: boolean;
};

/**
 * Per-process leases on fixed one-second rate-limit windows shared through PostgreSQL. A process
 * claims a bucket's hits in chunks of ⌊limit / LEASE_SHARE⌋ (at least 1) and serves the chunk from
 * memory, so a caller at 1000/s costs one upsert per 50 requests, not one per request, while a
 * limit of 10/s is still counted one by one. One claim per bucket is in flight at a time: the
 * requests arriving meanwhile wait for it (and it claims for them too), so a burst does not turn
 * into a burst of upserts. Grants never exceed the limit (a claim past it grants only what was
 * left, none when the window is already over: the process then refuses the rest of the window
 * without asking again); the price is that hits leased but unused by one process when the window
 * ends are lost to the others (at most a chunk less per process and window).
 */
export class QuotaLeases {
  private readonly leases = new Map<string, Lease>();
  private readonly claiming = new Map<string, { window: number; waiters: number; done: Promise<void> }>();
  private sweptWindow = 0;

  constructor(private readonly claim: ClaimQuota) {}

  async take(bucket: string, windowStart: number, limit: number): Promise<QuotaDecision> {
    for (;;) {
      this.forgetOldWindows(windowStart);
      const held = this.current(bucket, windowStart);
      if (held && held.left > 0) {
        held.left -= 1;
        return { allowed: true, remaining: remainingOf(held, limit) };
      }
      if (held?.exhausted) return { allowed: false, remaining: 0 };
      const inFlight = this.claiming.get(bucket);
      if (inFlight && inFlight.window === windowStart) {
        inFlight.waiters += 1;
        await inFlight.done;
        continue;
      }
      const claim = { window: windowStart, waiters: 0, done: Promise.resolve() };
      claim.done = this.claimLease(bucket, windowStart, limit, () => claim.waiters);
      this.claiming.set(bucket, claim);
      try {
        await claim.done;
      } finally {
        if (this.claiming.get(bucket) === claim) this.claiming.delete(bucket);
      }
    }
  }

  /** Claims a chunk, or as many as the requests waiting for it if more, and adds the grant to the bucket's lease. */
  private async claimLease(bucket: string, windowStart: number, limit: number, waiters: () => number): Promise<void> {
    await Promise.resolve(); // lets the requests already queued behind this claim count themselves in
    const n = Math.min(limit, Math.max(Math.floor(limit / LEASE_SHARE), 1 + waiters()));
    const total = await this.claim(bucket, windowStart, n);
    const granted = Math.max(0, Math.min(n, limit - (total - n)));
    const lease = this.current(bucket, windowStart) ?? { window: windowStart, left: 0, total: 0, exhausted: false };
    lease.total = Math.max(lease.total, total);
    lease.left += granted;
    if (granted < n) lease.exhausted = true;
    this.leases.set(bucket, lease);
  }

  private current(bucket: string, windowStart: number): Lease | undefined {
    const lease = this.leases.get(bucket);
    return lease && lease.window === windowStart ? lease : undefined;
  }

  /** Leases of past windows are worthless: dropped once per window, so the map holds only recent callers. */
  private forgetOldWindows(windowStart: number): void {
    if (windowStart === this.sweptWindow) return;
    this.sweptWindow = windowStart;
    for (const [bucket, lease] of this.leases) if (lease.window < windowStart) this.leases.delete(bucket);
  }
}

/** The limit minus what every process has claimed, plus what this process holds unused. */
function remainingOf(lease: Lease, limit: number): number {
  return Math.max(0, Math.min(limit, limit - lease.total + lease.left));
}

/**
 * ClaimQuota on table rate_limit_windows, in one round trip on the API's read-only pool
 * (writeInOneRoundTrip). The table is unlogged and the commit does not wait for a WAL flush: a
 * counter lost in a crash only forgets part of a one-second window.
 */
export function claimQuotaIn(pool: PgPool): ClaimQuota {
  return async (bucket, windowStart, n) => {
    if (!Number.isSafeInteger(windowStart)) throw new TypeError(`window start ${windowStart} is not an integer`);
    if (!Number.isSafeInteger(n) || n < 1) throw new TypeError(`claim of ${n} hits is not a positive integer`);
    const [claimed] = await writeInOneRoundTrip(
      pool,
      (literal) => [
        `INSERT INTO rate_limit_windows (bucket, window_start, count) VALUES (${literal(bucket)}, to_timestamp(${windowStart}), ${n})
       ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limit_windows.count + ${n} RETURNING count`,
      ],
      { asyncCommit: true },
    );
    return (claimed!.rows[0] as { count: number }).count;
  };
}
