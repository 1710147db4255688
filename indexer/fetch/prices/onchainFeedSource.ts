import { BaseError as ViemBaseError, formatUnits, parseAbi } from 'viem';
import { BaseError } from '../../../internal/errors.js';
import type { Logger } from '../../../internal/logger.js';
import { isRetryableRpcError } from '../../../internal/errorSources/rpc.js';
import type { ChainClients } from '../../../internal/rpc.js';
import type { PriceMap, PriceSource } from './types.js';

/** The Chainlink AggregatorV3 reads we need (our devnet PriceFeed implements them). */
export const priceFeedAbi = parseAbi([
  'function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
  'function decimals() view returns (uint8)',
]);

/** A chain's RPC failed (after viem's bounded retries) while reading its price feeds. */
export class PriceFeedReadError extends BaseError {
  override name = 'PriceFeedReadError';
}

export type FeedRound = { answer: bigint; decimals: number; updatedAt: bigint };
export type DecodeFeedRoundResult = { ok: true; price: number; updatedAt: Date } | { ok: false; reason: string };

/**
 * Pure: a feed's latest round → USD price and the round's own time. A non-positive answer (Chainlink
 * feeds answer 0 or less when broken) or a round never updated (updatedAt 0) is not a price.
 */
export function decodeFeedRound({ answer, decimals, updatedAt }: FeedRound): DecodeFeedRoundResult {
  if (answer <= 0n) return { ok: false, reason: `non-positive answer ${answer}` };
  if (updatedAt <= 0n) return { ok: false, reason: 'round never updated' };
  return { ok: true, price: Number(formatUnits(answer, decimals)), updatedAt: new Date(Number(updatedAt) * 1000) };
}

export type CreateOnchainFeedSourceParams = {
  /** One client per chain; each chain's `priceFeeds` (token address → feed address) says what to read. */
  clients: ChainClients;
  logger: Logger;
  /** Recorded as `priceSource`; default `ONCHAIN_CALL`. */
  name?: string;
};

/**
 * On-chain price source: `latestRoundData()` and `decimals()` of every configured feed of a chain
 * in one deployless multicall per chain (no Multicall3 deployment needed). A failed read or a bad
 * answer skips that token with a log line; an RPC failure (network, timeout, 429, 5xx, after the
 * transport's bounded retries) fails the whole fetch with PriceFeedReadError.
 */
export function createOnchainFeedSource({
  clients,
  logger,
  name = 'ONCHAIN_CALL',
}: CreateOnchainFeedSourceParams): PriceSource {
  const log = logger.child({ price_source: name });
  return {
    name,
    async fetchPrices({ tokens }) {
      const result: PriceMap = new Map();
      const perChain = await Promise.all(
        [...clients.values()].map(async ({ chain, client }) => {
          const feeds = new Map(Object.entries(chain.priceFeeds).map(([token, feed]) => [token.toLowerCase(), feed]));
          const targets = tokens
            .filter((t) => t.chainId === chain.id && feeds.has(t.address.toLowerCase()))
            .map((token) => ({ token, feed: feeds.get(token.address.toLowerCase())! }));
          if (!targets.length) return [];
          const contracts = targets.flatMap(({ feed }) => [
            { address: feed, abi: priceFeedAbi, functionName: 'latestRoundData' } as const,
            { address: feed, abi: priceFeedAbi, functionName: 'decimals' } as const,
          ]);
          const reads = await client.multicall({ contracts, allowFailure: true, deployless: true });
          const transport = reads.find((r) => r.status === 'failure' && isTransportFailure(r.error));
          if (transport?.status === 'failure') {
            throw new PriceFeedReadError(`chain ${chain.id}: reading price feeds failed`, {
              cause: summarize(transport.error),
              details: { chain_id: chain.id, feeds: targets.length },
            });
          }
          return targets.map(({ token, feed }, i) => ({
            token,
            feed,
            round: reads[2 * i],
            decimals: reads[2 * i + 1],
          }));
        }),
      );
      for (const { token, feed, round, decimals } of perChain.flat()) {
        const skip = (reason: string) =>
          log.warn({ msg: 'price feed skipped', chain_id: token.chainId, token: token.address, feed, reason });
        if (round?.status !== 'success' || decimals?.status !== 'success') {
          skip(`read failed: ${firstLine(round?.status === 'failure' ? round.error : decimals?.error)}`);
          continue;
        }
        // Calls alternate latestRoundData / decimals, so each result's type is known by its position.
        const [, answer, , updatedAt] = round.result as readonly [bigint, bigint, bigint, bigint, bigint];
        const decoded = decodeFeedRound({ answer, decimals: decimals.result as number, updatedAt });
        if (decoded.ok) result.set(token.id, { price: decoded.price, updatedAt: decoded.updatedAt, source: name });
        else skip(decoded.reason);
      }
      return result;
    },
  };
}

/** viem wraps transport errors (HttpRequestError, TimeoutError) in call errors: look through the chain. */
function isTransportFailure(error: unknown): boolean {
  if (error instanceof ViemBaseError) return error.walk((e) => isRetryableRpcError(e)) !== null;
  return isRetryableRpcError(error);
}

/**
 * viem messages carry the whole request body (a deployless multicall is kilobytes of bytecode):
 * keep the transport error's short message and details for job_runs, the full error as its cause.
 */
function summarize(error: unknown): Error {
  const transport =
    error instanceof ViemBaseError ? (error.walk((e) => isRetryableRpcError(e)) as ViemBaseError | null) : null;
  const text = transport ? [transport.shortMessage, transport.details].filter(Boolean).join(' ') : firstLine(error);
  return new Error(text, { cause: error });
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
