import type { ChainConfig } from '../../../internal/config.js';
import { classifyFetchError, classifyHttpStatus } from '../../../internal/errorSources/http.js';
import { BaseError } from '../../../internal/errors.js';
import type { Logger } from '../../../internal/logger.js';
import { withRetry } from '../../../internal/retry.js';
import type { PriceMap, PriceSource } from './types.js';

/** The price API answered something we must not retry blindly, or failed in a retryable way. */
export class PriceApiError extends BaseError {
  override name = 'PriceApiError';
  readonly status: number | undefined;

  constructor(
    message: string,
    options: { status?: number; retryable: boolean; details?: Record<string, unknown>; cause?: unknown },
  ) {
    super(message, {
      details: { ...options.details, status: options.status },
      cause: options.cause,
      retryable: options.retryable,
    });
    this.status = options.status;
  }
}

/** Pure: 408, 429 and 5xx are transient; any other non-2xx status is fatal (bad URL, key, or request): classifyHttpStatus. */
export function isRetryableStatus(status: number): boolean {
  return classifyHttpStatus(status).retryable;
}

/**
 * Pure: retryable (network error, our timeout, 408, 429, 5xx) versus fatal (other 4xx, a body that is
 * not the coins shape, the job being aborted): the flag of a PriceApiError, else classifyFetchError.
 */
export function isRetryablePriceApiError(error: unknown): boolean {
  if (error instanceof PriceApiError) return error.retryable;
  return classifyFetchError(error)?.retryable ?? false;
}

/** Chain key of a chain in the price API: `priceApiChain` when configured, else `chain-<id>`. */
export function chainKeyOf(chainId: number, chains: readonly Pick<ChainConfig, 'id' | 'priceApiChain'>[]): string {
  return chains.find((c) => c.id === chainId)?.priceApiChain ?? `chain-${chainId}`;
}

/** Coin identifier in the coins API: `<chainKey>:<address>`, compared lower-cased. */
export function coinKey(chainKey: string, address: string): string {
  return `${chainKey}:${address}`.toLowerCase();
}

export type CoinPrice = { price: number; updatedAt: Date };
export type ParseCoinsResult = { prices: Map<string, CoinPrice>; skipped: { coin: string; reason: string }[] };

/**
 * Pure: reads `{ coins: { "<chainKey>:<address>": { price, symbol, decimals, timestamp, confidence } } }`.
 * A requested coin that is missing, or whose price is not a positive finite number, or whose
 * timestamp is not a positive number of seconds, is skipped with a reason (a price without its
 * own time could never be judged stale, so it is not used).
 * @param coins the keys requested (see coinKey).
 * @throws PriceApiError (fatal) when the body is not the coins shape at all.
 */
export function parseCoinsResponse(body: unknown, coins: readonly string[]): ParseCoinsResult {
  const map = (body as { coins?: unknown } | null)?.coins;
  if (typeof map !== 'object' || map === null || Array.isArray(map)) {
    throw new PriceApiError('price API answer has no `coins` object', { retryable: false });
  }
  const byKey = new Map(
    Object.entries(map as Record<string, unknown>).map(([key, value]) => [key.toLowerCase(), value]),
  );
  const prices = new Map<string, CoinPrice>();
  const skipped: ParseCoinsResult['skipped'] = [];
  for (const coin of coins) {
    const entry = byKey.get(coin.toLowerCase()) as { price?: unknown; timestamp?: unknown } | undefined;
    if (entry === undefined || entry === null || typeof entry !== 'object') {
      skipped.push({ coin, reason: 'missing' });
    } else if (typeof entry.price !== 'number' || !Number.isFinite(entry.price) || entry.price <= 0) {
      skipped.push({ coin, reason: 'price is not a positive number' });
    } else if (typeof entry.timestamp !== 'number' || !Number.isFinite(entry.timestamp) || entry.timestamp <= 0) {
      skipped.push({ coin, reason: 'timestamp is not a positive number' });
    } else {
      prices.set(coin.toLowerCase(), { price: entry.price, updatedAt: new Date(Math.round(entry.timestamp * 1000)) });
    }
  }
  return { prices, skipped };
}

export type CreateHttpPriceSourceParams = {
  /** Base URL; requests go to `{apiUrl}/prices/current/{coins}`. */
  apiUrl: string;
  /** Deadline of one request, body included. */
  timeoutMs: number;
  /** For each chain's `priceApiChain`. */
  chains: readonly Pick<ChainConfig, 'id' | 'priceApiChain'>[];
  logger: Logger;
  /** Recorded as `priceSource`; default `DEFILLAMA` (the coins API shape it speaks). */
  name?: string;
  /** Coins per request; at most 100. */
  batchSize?: number;
  /** Retries after the first attempt of each request; default 3. */
  retries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
};

/**
 * HTTP price source for a DefiLlama-style coins API. Tokens are asked in batches of at most 100
 * coins, one request at a time; each request is retried with exponential backoff on network
 * errors, timeouts, 429 and 5xx, and fails the fetch after its bound or on any other 4xx.
 */
export function createHttpPriceSource(params: CreateHttpPriceSourceParams): PriceSource {
  const name = params.name ?? 'DEFILLAMA';
  const batchSize = Math.min(100, Math.max(1, params.batchSize ?? 100));
  const base = params.apiUrl.replace(/\/+$/, '');
  const logger = params.logger.child({ price_source: name });
  return {
    name,
    async fetchPrices({ tokens, signal }) {
      const idsByCoin = new Map<string, string[]>();
      for (const token of tokens) {
        const coin = coinKey(chainKeyOf(token.chainId, params.chains), token.address);
        idsByCoin.set(coin, [...(idsByCoin.get(coin) ?? []), token.id]);
      }
      const coins = [...idsByCoin.keys()];
      const result: PriceMap = new Map();
      for (let i = 0; i < coins.length; i += batchSize) {
        const batch = coins.slice(i, i + batchSize);
        const url = `${base}/prices/current/${batch.map((c) => c.split(':').map(encodeURIComponent).join(':')).join(',')}`;
        const body = await withRetry(() => getJson(url, params.timeoutMs, signal), {
          retries: params.retries ?? 3,
          baseDelayMs: params.baseDelayMs ?? 250,
          maxDelayMs: params.maxDelayMs ?? 5000,
          shouldRetry: isRetryablePriceApiError,
          onRetry: ({ attempt, delayMs, error }) =>
            logger.warn({
              msg: 'price API request failed; retrying',
              attempt,
              delay_ms: delayMs,
              coins: batch.length,
              err: (error as Error).message,
            }),
          ...(signal ? { signal } : {}),
        }).catch((error: unknown) => {
          throw new PriceApiError(`price API request for ${batch.length} coins failed`, {
            retryable: false,
            cause: error,
            details: { host: new URL(base).host, first_coin: batch[0] },
          });
        });
        const { prices, skipped } = parseCoinsResponse(body, batch);
        if (skipped.length)
          logger.debug({ msg: 'price API coins skipped', count: skipped.length, skipped: skipped.slice(0, 20) });
        for (const [coin, quote] of prices) {
          for (const id of idsByCoin.get(coin) ?? []) result.set(id, { ...quote, source: name });
        }
      }
      return result;
    },
  };
}

/** One GET with its own deadline; a non-2xx answer or a non-JSON body becomes a PriceApiError. */
async function getJson(url: string, timeoutMs: number, signal: AbortSignal | undefined): Promise<unknown> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const response = await fetch(url, {
    headers: { accept: 'application/json' },
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  const text = await response.text();
  if (!response.ok) {
    throw new PriceApiError(`price API answered HTTP ${response.status}`, {
      status: response.status,
      retryable: isRetryableStatus(response.status),
      details: { host: redact(url), body: text.slice(0, 200) },
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new PriceApiError('price API answered a body that is not JSON', {
      status: response.status,
      retryable: false,
      cause,
      details: { host: redact(url) },
    });
  }
}

/** Only the host: API keys travel in the path or query of some price APIs, and the coin list is long. */
function redact(url: string): string {
  return new URL(url).host;
}
