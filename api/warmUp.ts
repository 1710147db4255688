import type { Logger } from '../internal/logger.js';
import type { Queryable } from '../internal/pg.js';
import { describeError } from '../internal/errors.js';

/** Start-up waits for the warm-up this long at most (the chains after are left cold). */
const WARM_UP_MS = 5000;

/**
 * Once the API listens: one GET /v4/users/{address}/rewards per chain through its own server, for a
 * recipient of the chain's latest stored tree (an address no tree holds when there is none), before
 * start-up reports ready. A fresh process's first read of that route otherwise ran its code cold:
 * measured at 100,000 leaves (bench:rewards), 21 ms after the connections and the proof code were
 * warmed, 34 ms before, where the next reads took 9 ms. It also keeps the live root's top. Failures
 * are logged, never fatal: the API serves either way.
 * Table reward_leaf_versions.
 */
export async function warmUserRewards({
  url,
  pg,
  chainIds,
  logger,
}: {
  url: string;
  pg: Queryable;
  chainIds: readonly number[];
  logger: Logger;
}): Promise<void> {
  const deadline = AbortSignal.timeout(WARM_UP_MS);
  const warm = async (chainId: number) => {
    const { rows } = await pg.query<{ recipient: string }>(
      'SELECT recipient FROM reward_leaf_versions WHERE chain_id = $1 AND until_seq IS NULL LIMIT 1',
      [chainId],
    );
    const address = rows[0]?.recipient ?? `0x${'00'.repeat(19)}01`;
    const res = await fetch(`${url}/v4/users/${address}/rewards?chainId=${chainId}&breakdownPage=0`, {
      signal: deadline,
    });
    const body = await res.arrayBuffer();
    if (!res.ok) throw new Error(`answered ${res.status}: ${Buffer.from(body).toString().slice(0, 200)}`);
  };
  const started = performance.now();
  // One chain after the other: a read uses five connections at once.
  let warmed = 0;
  for (const chainId of chainIds) {
    if (deadline.aborted) break;
    try {
      await warm(chainId);
      warmed++;
    } catch (error) {
      logger.warn({ msg: 'api warm-up read failed', chain_id: chainId, err: describeError(error) });
    }
  }
  logger.info({
    msg: 'api warmed up',
    chains: warmed,
    of: chainIds.length,
    ms: Math.round(performance.now() - started),
  });
}
