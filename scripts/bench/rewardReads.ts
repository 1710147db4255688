/**
 * The API side of bench:rewards (scripts/bench/rewards.ts): `/v4/users/{address}/rewards` reads timed
 * from the client and checked against the tree (the root served and each leaf's amount), the first
 * reads after a new root with `/v4/health/live` polled meanwhile, and warm reads.
 */
import type { Address, Hex } from 'viem';
import { loadLiveRoot } from '../../api/reads/roots.js';
import { hashLeaf, verifyProof } from '../../domain/rewardTree.js';
import type { Queryable } from '../../internal/pg.js';
import type { EventLoopClient, EventLoopDelay } from './eventLoopClient.js';

/** A recipient and what the live tree holds for it, by token. */
export type ExpectedRewards = { address: string; amounts: Map<string, bigint> };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until the API's live-root rule (api/reads/roots.ts loadLiveRoot) serves `root` on `chainId`
 * with its tree verified, reading PostgreSQL (so the API's own caches stay cold).
 */
export async function waitUntilServable(db: Queryable, chainId: number, root: string, timeoutMs: number) {
  for (const deadline = Date.now() + timeoutMs; ; await sleep(50)) {
    const live = await loadLiveRoot(db as Parameters<typeof loadLiveRoot>[0], chainId);
    if (live?.root === root.toLowerCase() && live.treeStatus === 'verified') return;
    if (Date.now() > deadline) throw new Error(`root ${root} of chain ${chainId} not servable within ${timeoutMs} ms`);
  }
}

type ServedReward = { root: string; token: { address: Address }; amount: string; proofs: Hex[] };

/** Whether a served reward is the expected leaf of `root`, with a proof the Distributor would accept. */
function isExpected(r: ServedReward, root: string, expected: ExpectedRewards): boolean {
  const amount = BigInt(r.amount);
  if (r.root !== root.toLowerCase() || expected.amounts.get(r.token.address.toLowerCase()) !== amount) return false;
  const leaf = hashLeaf({ user: expected.address as Address, token: r.token.address, amount });
  return verifyProof({ leaf, proof: r.proofs, root: root as Hex });
}

/**
 * GET /v4/users/{address}/rewards?chainId=…&breakdownPage=0.
 * @returns its latency in ms (client side, body read).
 * @throws Error when it is not a 200 serving `root` with exactly the expected amounts, each with a valid proof.
 */
export async function readUserRewards(apiUrl: string, chainId: number, root: string, expected: ExpectedRewards) {
  const url = `${apiUrl}/v4/users/${expected.address}/rewards?chainId=${chainId}&breakdownPage=0`;
  let t0 = performance.now();
  let res: Response;
  try {
    res = await fetch(url);
  } catch (error) {
    // A kept-alive connection the API closed while idle (its keepAliveTimeout, e.g. after the page cache was
    // dropped): undici fails the request on it. Sent again on a new connection, and that one is timed.
    if (!isClosedSocket(error)) throw error;
    t0 = performance.now();
    res = await fetch(url);
  }
  const body = (await res.json()) as { rewards?: ServedReward[] }[];
  const ms = performance.now() - t0;
  const served = Array.isArray(body) ? body.flatMap((c) => c.rewards ?? []) : [];
  const wrong = served.filter((r) => !isExpected(r, root, expected));
  if (!res.ok || served.length !== expected.amounts.size || wrong.length)
    throw new Error(
      `/v4/users/${expected.address}/rewards answered ${res.status} ${JSON.stringify(body).slice(0, 300)}, expected root ${root} with ${expected.amounts.size} rewards`,
    );
  return ms;
}

/** Whether a fetch failed because the server had closed the kept-alive connection it was sent on. */
function isClosedSocket(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } } | null)?.cause;
  return error instanceof TypeError && cause?.code === 'UND_ERR_SOCKET';
}

/** Polls GET /v4/health/live every `everyMs` (one at a time) until stopped; latencies in ms. */
export function pollLive(apiUrl: string, everyMs = 10): { stop(): Promise<number[]> } {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      await fetch(`${apiUrl}/v4/health/live`).then((r) => r.arrayBuffer());
      latencies.push(performance.now() - t0);
      await sleep(Math.max(0, everyMs - (performance.now() - t0)));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return latencies;
    },
  };
}

export type FirstReads = {
  /** The first read after the root became servable, ms. */
  firstMs: number;
  /** The reads after it, ms, in order. */
  nextMs: number[];
  /** `/v4/health/live` latencies meanwhile, ms. */
  live: number[];
  /** The API process's event-loop delay over the same window (null without the probe). */
  eventLoop: EventLoopDelay | null;
};

/**
 * The first `recipients.length` reads after a new root, one after another, with /v4/health/live polled
 * every 10 ms and the API's event-loop probe reset before and read after.
 */
export async function measureFirstReads(
  apiUrl: string,
  eventLoop: EventLoopClient | undefined,
  chainId: number,
  root: string,
  recipients: readonly ExpectedRewards[],
): Promise<FirstReads> {
  await eventLoop?.reset();
  const live = pollLive(apiUrl);
  const times: number[] = [];
  for (const r of recipients) times.push(await readUserRewards(apiUrl, chainId, root, r));
  const liveMs = await live.stop();
  return { firstMs: times[0]!, nextMs: times.slice(1), live: liveMs, eventLoop: (await eventLoop?.read()) ?? null };
}

/** Reads each recipient once, one after another; latencies in ms, ascending. */
export async function measureWarmReads(
  apiUrl: string,
  chainId: number,
  root: string,
  recipients: readonly ExpectedRewards[],
): Promise<number[]> {
  const times: number[] = [];
  for (const r of recipients) times.push(await readUserRewards(apiUrl, chainId, root, r));
  return times.sort((a, b) => a - b);
}
