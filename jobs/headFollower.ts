import type { Logger } from '../internal/logger.js';
import type { ChainClients } from '../internal/rpc.js';
import { describeError } from '../internal/errors.js';

export type HeadFollower = { stop(): void };

export type StartHeadFollowerParams = {
  rpc: ChainClients;
  chainIds: readonly number[];
  pollMs: number;
  logger: Logger;
  signal: AbortSignal;
  /** Called once per new head of a chain (never twice at once for one chain: polls wait for it). */
  onHead(chainId: number, head: number): Promise<void>;
};

/**
 * Follow mode: polls each chain's head (`eth_blockNumber`) every `pollMs` and calls `onHead` when it
 * moved, so a new block is indexed at once instead of at the next cron tick. One loop per chain: a
 * slow or dead node delays only its own chain. A failed poll is logged once until the chain answers
 * again (the units' own runs record and back off RPC failures).
 */
export function startHeadFollower({
  rpc,
  chainIds,
  pollMs,
  logger,
  signal,
  onHead,
}: StartHeadFollowerParams): HeadFollower {
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  for (const chainId of chainIds) {
    const client = rpc.get(chainId);
    if (!client) continue;
    let last = -1;
    let failing = false;
    const poll = async () => {
      try {
        const head = Number(await client.client.getBlockNumber({ cacheTime: 0 }));
        if (failing) logger.info({ msg: 'head follower: chain answers again', chain_id: chainId });
        failing = false;
        if (head > last) {
          last = head;
          await onHead(chainId, head);
        }
      } catch (error) {
        if (!failing)
          logger.warn({ msg: 'head follower: head not read', chain_id: chainId, err: describeError(error) });
        failing = true;
      }
    };
    const loop = () => {
      if (stopped || signal.aborted) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        void poll().finally(loop);
      }, pollMs);
      timers.add(timer);
    };
    loop();
  }
  return {
    stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
