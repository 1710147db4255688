import { setMaxListeners } from 'node:events';
import { createPublicClient, custom, http, HttpRequestError, TimeoutError, type PublicClient } from 'viem';
import { capGas, type ChainClient } from '../../internal/rpc.js';
import type { ApiDeps } from '../deps.js';
import { AppError, ServiceUnavailableError } from '../errors.js';
import { ChainReadAbandonedError, ChainReadBusyError, createChainReadGate, type ChainReadGate } from './readGate.js';

type RawRequest = (
  args: { method: string; params?: unknown },
  options?: { signal?: AbortSignal | undefined },
) => Promise<unknown>;

/** Per chain client (one per chain and process: api/server.ts builds them once): its gate and raw transport. */
type ChainReadState = { gate: ChainReadGate; request: RawRequest };
const states = new WeakMap<ChainClient, ChainReadState>();

function stateOf(deps: ApiDeps, chain: ChainClient): ChainReadState {
  let state = states.get(chain);
  if (!state) {
    const { concurrency, queue, deadlineMs } = deps.config.chainReads;
    const url = (chain.client.transport as { url?: string }).url ?? chain.chain.rpcUrl;
    // Not the indexer's client: no retries (Hardhat answers a revert with -32603, which viem retries
    // three times), and the calls of one read (one abort signal) leave as one JSON-RPC batch.
    const { request } = http(url, { batch: { batchSize: 100, wait: 0 }, retryCount: 0 })({
      chain: chain.client.chain,
      timeout: deadlineMs,
    });
    state = { gate: createChainReadGate({ concurrency, queue }), request: request as RawRequest };
    states.set(chain, state);
  }
  return state;
}

export type ReadChainParams = {
  /** The gas limit of each eth_call of the read (config.chainReads.readGas for a view, callGas to deploy or simulate). */
  gas: bigint;
};

/**
 * What a deployless multicall (viem `multicall({ deployless: true })`) spends before its first read:
 * the call creates Multicall3's code first (about 1.1M gas measured on Hardhat, its bytecode sent and
 * deposited). Only reads of our own contracts use one, with this plus CHAIN_READ_GAS per read.
 */
export const DEPLOYLESS_MULTICALL_GAS = 1_500_000n;

/** A client of the same read (turn, deadline, batch) whose eth_calls carry at most `gas` instead. */
export type WithGas = (gas: bigint) => PublicClient;

/**
 * Runs the chain reads of one request (issue #43 F1, docs/api-behaviour.md#bounded-chain-reads): after
 * a turn of the chain's gate (CHAIN_READ_CONCURRENCY reads at once, CHAIN_READ_QUEUE waiting; beyond, a
 * 503 with Retry-After), through a client whose every eth_call carries at most `gas`, all within one
 * deadline (CHAIN_READ_DEADLINE_MS from arrival, the wait included) that aborts the read's HTTP
 * requests. A node that fails, is too slow or unreachable is a 503 naming the chain, never a 500.
 * Every request-caused chain call goes through here; so what a node runs for one request is bounded
 * by the gas of its calls, and what it runs at once by the gate.
 */
export async function readChain<T>(
  deps: ApiDeps,
  chain: ChainClient,
  { gas }: ReadChainParams,
  read: (client: PublicClient, withGas: WithGas) => Promise<T>,
): Promise<T> {
  const { gate, request } = stateOf(deps, chain);
  const ms = deps.config.chainReads.deadlineMs;
  const deadline = AbortSignal.timeout(ms);
  // One abort listener per HTTP request in flight (a read's calls are bounded by its route): no leak warning.
  setMaxListeners(0, deadline);
  let release: (() => void) | undefined;
  try {
    release = await gate.acquire(deadline);
    const withGas: WithGas = (limit) =>
      createPublicClient({
        chain: chain.client.chain,
        cacheTime: 0,
        transport: custom(
          {
            request: ({ method, params }) =>
              request({ method, params: capGas(method, params, limit) }, { signal: deadline }),
          },
          { retryCount: 0 },
        ),
      }) as PublicClient;
    return await untilAborted(read(withGas(gas), withGas), deadline);
  } catch (error) {
    throw readError(chain, ms, error, deadline.aborted);
  } finally {
    release?.();
  }
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ChainReadAbandonedError('deadline passed during the read'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The problem a failed read answers. */
function readError(chain: ChainClient, ms: number, error: unknown, late: boolean): AppError {
  if (error instanceof AppError) return error;
  const service = `the RPC of chain ${chain.chain.id}`;
  if (error instanceof ChainReadBusyError)
    return new AppError(503, 'SERVICE_UNAVAILABLE', `${service} has too many reads in progress, retry shortly`, {
      cause: error,
      extensions: { service, reason: 'busy' },
      headers: { 'Retry-After': '1' },
    });
  if (late || error instanceof ChainReadAbandonedError)
    return new AppError(503, 'SERVICE_UNAVAILABLE', `${service} did not answer within ${ms} ms, retry shortly`, {
      cause: error,
      extensions: { service, reason: 'deadline' },
    });
  return new ServiceUnavailableError(service, error);
}

/** The error and its causes, outermost first (viem wraps a transport error in call errors). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e: unknown = error; e !== undefined && e !== null && chain.length < 10; e = (e as { cause?: unknown }).cause)
    chain.push(e);
  return chain;
}

/**
 * Whether a failed call is the node's failure (unreachable, an HTTP error, a timeout, the deadline, a
 * rate limit) rather than the called code's (a revert, out of gas, not a contract): a read throws the
 * first, and leaves out what the second failed to read.
 */
export function isNodeFailure(error: unknown): boolean {
  return causes(error).some((e) => {
    if (e instanceof HttpRequestError || e instanceof TimeoutError || e instanceof ChainReadAbandonedError) return true;
    if (e instanceof Error && e.name === 'AbortError') return true;
    const code = (e as { code?: unknown }).code;
    return code === -32005 || code === -32007 || code === 429;
  });
}
