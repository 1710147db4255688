import { setTimeout as sleep } from 'node:timers/promises';
import { rewardTokenMinimumAmountUpdatedEvent } from '../../domain/abis/distributionCreator.js';
import { decodeCampaignLogs } from '../../indexer/decode/campaignLogs.js';
import { fetchNextLogs } from '../../indexer/fetch/getLogsAdaptive.js';
import { createLogSpan } from '../../indexer/fetch/logSpan.js';
import { assertCanonical, lockChainForWrite, ReorgDetectedError } from '../../indexer/store/chainGuard.js';
import { getCursor } from '../../indexer/store/cursor.js';
import { upsertRewardTokenMinAmounts } from '../../indexer/store/rewardTokens.js';
import { toRewardTokenMinAmountRows } from '../../indexer/transform/rewardTokens.js';
import type { ChainClient } from '../../internal/rpc.js';
import { withTransaction } from '../../internal/pg.js';
import { createProgressBar } from './progressBar.js';
import { UsageError, type Command, type CommandContext } from './types.js';

/** Tries of one range whose blocks are being reorganized (the blocks job rolls them back meanwhile). */
const REORG_TRIES = 3;

/**
 * `backfill-reward-tokens [chainId …]` (#33): the DistributionCreator's RewardTokenMinimumAmountUpdated
 * logs (GET /v4/tokens/reward) from each chain's start block up to the campaigns job's cursor, stored
 * as the campaigns job stores them (reward_token_min_amounts, upserted by log position: a re-run
 * changes nothing). For a deployment whose campaigns job had passed those logs before the table
 * existed (sql/migrations/2026_12_01_02_reward_token_min_amounts.sql); unlike `backfill --jobs
 * campaigns`, it reads only this event, so no campaign is announced again in the event log. Logs
 * above the cursor are the campaigns job's own. Each range is checked against the stored headers
 * under the chain's write lock, like the job's batches. Tables: reward_token_min_amounts, cursors, blocks.
 */
export const backfillRewardTokensCommand: Command = {
  usage: 'backfill-reward-tokens [chainId …]',
  async run(ctx, args) {
    const chains = chainsOf(ctx, args);
    for (const chain of chains) await backfillChain(ctx, chain);
    return 0;
  },
};

/** The configured chains named by `args` (every chain without), or a usage error naming the unknown one. */
function chainsOf(ctx: CommandContext, args: string[]): ChainClient[] {
  const clients = [...ctx.deps.rpc.values()];
  if (!args.length) return clients;
  return args.map((arg) => {
    const client = /^\d+$/.test(arg) ? clients.find((c) => c.chain.id === Number(arg)) : undefined;
    if (!client)
      throw new UsageError(
        `backfill-reward-tokens: "${arg}" is not a configured chain id (chains: ${clients.map((c) => c.chain.id).join(', ')})`,
      );
    return client;
  });
}

async function backfillChain(ctx: CommandContext, { chain, client }: ChainClient): Promise<void> {
  const cursor = await getCursor(ctx.deps.pg, 'campaigns', chain.id);
  if (cursor === null || cursor < chain.startBlock) {
    ctx.out(`chain ${chain.id}: the campaigns job has not indexed it yet (it reads the whitelist from the start)`);
    return;
  }
  const total = cursor - chain.startBlock + 1;
  const bar = createProgressBar({
    stream: ctx.err,
    label: `backfill-reward-tokens chain ${chain.id}`,
    unit: 'blocks',
    total,
  });
  const span = createLogSpan({ max: ctx.config.indexer.maxLogRange, targetLogs: 2000 });
  let stored = 0;
  for (let from = chain.startBlock; from <= cursor && !ctx.deps.signal.aborted; ) {
    const { range, logs } = await fetchNextLogs({
      client,
      address: chain.distributionCreator,
      events: [rewardTokenMinimumAmountUpdatedEvent],
      from,
      limit: cursor,
      span,
      retries: ctx.config.indexer.rpcRetries,
      signal: ctx.deps.signal,
    });
    const rows = toRewardTokenMinAmountRows(decodeCampaignLogs(chain.id, logs).rewardTokenMinAmounts);
    if (rows.length) {
      for (let attempt = 1; ; attempt++) {
        try {
          await withTransaction(ctx.deps.pg, async (tx) => {
            await lockChainForWrite(tx, chain.id);
            await assertCanonical(tx, chain.id, range.to, new Map(rows.map((r) => [r.blockNumber, r.blockHash])));
            await upsertRewardTokenMinAmounts(tx, rows);
          });
          break;
        } catch (error) {
          if (!(error instanceof ReorgDetectedError) || attempt >= REORG_TRIES) throw error;
          ctx.logger.warn({
            msg: 'whitelist logs read from a reorganized block; reading the range again',
            chain_id: chain.id,
            from_block: range.from,
            to_block: range.to,
            error: error.message,
          });
          await sleep(1000 * attempt);
        }
      }
      stored += rows.length;
    }
    from = range.to + 1;
    bar.update(range.to - chain.startBlock + 1);
  }
  if (ctx.deps.signal.aborted) throw new Error(`backfill-reward-tokens chain ${chain.id}: interrupted`);
  bar.finish();
  ctx.out(`chain ${chain.id}: ${stored} whitelist log(s) stored from block ${chain.startBlock} to ${cursor}`);
}
