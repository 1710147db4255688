import { setMaxListeners } from 'node:events';
import { createPublicClient, custom, http, HttpRequestError, TimeoutError, type PublicClient } from 'viem';
import { capGas, runsCode, type ChainClient } from '../../internal/rpc.js';
import type { ApiDeps } from '../deps.js';
import { AppError, ServiceUnavailableError } from '../errors.js';
import { ChainReadAbandonedError, ChainReadBusyError, createChainReadGate, type ChainReadGate } from './readGate.js';
import { PROBLEMS } from '../problems/registry.js';
import { BaseError } from '../../internal/errors.js';

/** A request's eth_calls would carry more gas together than its budget (CHAIN_REQUEST_GAS): the call is not sent. */
export class ChainReadBudgetError extends BaseError {
  override name = 'ChainReadBudgetError';
  constructor(
    readonly budget: bigint,
    readonly spent: bigint,
    readonly gas: bigint,
  ) {
    super(`a call of ${gas} gas after ${spent} would exceed the read's budget of ${budget} gas`);
  }
}

/** Per chain client (one per chain and process: api/server.ts builds them once): its gate. */
const gates = new WeakMap<ChainClient, ChainReadGate>();

function gateOf(deps: ApiDeps, chain: ChainClient): ChainReadGate {
  let gate = gates.get(chain);
  if (!gate) {
    const { concurrency, queue } = deps.config.chainReads;
    gate = createChainReadGate({ concurrency, queue });
    gates.set(chain, gate);
  }
  return gate;
}

/**
 * Calls per JSON-RPC batch of a read. A read sends its batches one after the other, so what the node
 * runs for it at once is at most this many calls (each within its gas): the unit a deadline can stop.
 */
export const READ_CHUNK_CALLS = 10;

/**
 * The HTTP requests of one read, sent one at a time. Once sent, a request is not aborted at the read's
 * deadline (the node would go on running its calls: aborting only frees our side); it ends when the
 * node answers, or `holdMs` after it was sent. `settled` resolves when the last one ended: the read's
 * gate turn is held until then. After the deadline nothing more is sent.
 */
function createSerialFetch(deadline: AbortSignal, holdMs: number) {
  let tail: Promise<unknown> = Promise.resolve();
  const fetchFn = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const sent = tail.then(() => {
      if (deadline.aborted) throw new ChainReadAbandonedError('deadline passed before the batch was sent');
      return fetch(input, { ...init, signal: AbortSignal.timeout(holdMs) });
    });
    tail = sent.catch(() => undefined);
    return sent;
  };
  return { fetchFn, settled: () => tail };
}

export type ReadChainParams = {
  /** The gas limit of each eth_call of the read (config.chainReads.readGas for a view, callGas to deploy or simulate). */
  gas: bigint;
  /**
   * The gas the read's eth_calls may carry together (default CHAIN_REQUEST_GAS): a call beyond it is not
   * sent (ChainReadBudgetError, a 503 naming the budget). Only a read bounded by its own structure (the
   * payload route's multicall of our contracts, its creation simulation) declares a larger one.
   */
  budget?: bigint;
};

/**
 * What a deployless multicall (viem `multicall({ deployless: true })`) spends before its first read:
 * the call creates Multicall3's code first (about 1.1M gas measured on Hardhat, its bytecode sent and
 * deposited). Only reads of our own contracts use one, with this plus CHAIN_READ_GAS per read.
 */
export const DEPLOYLESS_MULTICALL_GAS = 1_500_000n;

/** A client of the same read (turn, deadline, budget, batches) whose eth_calls carry at most `gas` instead. */
export type WithGas = (gas: bigint) => PublicClient;

/**
 * Runs the chain reads of one request (issue #43 F1, docs/api-behaviour.md#bounded-chain-reads): after
 * a turn of the chain's gate (CHAIN_READ_CONCURRENCY reads at once, CHAIN_READ_QUEUE waiting; beyond, a
 * 503 with Retry-After), through a client whose every eth_call carries at most `gas` and all of them
 * together at most the read's budget (CHAIN_REQUEST_GAS), all within one deadline
 * (CHAIN_READ_DEADLINE_MS from arrival, the wait included). The calls leave in JSON-RPC batches of
 * READ_CHUNK_CALLS, one batch at a time; at the deadline the read answers 503 and sends nothing more,
 * but keeps its turn until the node has answered the batch it is running (or CHAIN_READ_DEADLINE_MS
 * after it was sent), so the gate bounds what the node runs, not only what we wait for. A node that
 * fails, is too slow or unreachable is a 503 naming the chain, never a 500. Every request-caused chain
 * call goes through here (test/unit/architecture/chainClients.test.ts).
 */
export async function readChain<T>(
  deps: ApiDeps,
  chain: ChainClient,
  { gas, budget = BigInt(deps.config.chainReads.requestGas) }: ReadChainParams,
  read: (client: PublicClient, withGas: WithGas) => Promise<T>,
): Promise<T> {
  const gate = gateOf(deps, chain);
  const ms = deps.config.chainReads.deadlineMs;
  const deadline = AbortSignal.timeout(ms);
  // One abort listener per HTTP request in flight (a read's calls are bounded by its route): no leak warning.
  setMaxListeners(0, deadline);
  const serial = createSerialFetch(deadline, ms);
  let release: (() => void) | undefined;
  try {
    release = await gate.acquire(deadline);
    const url = (chain.client.transport as { url?: string }).url ?? chain.chain.rpcUrl;
    // Not the indexer's client: no retries (Hardhat answers a revert with -32603, which viem retries
    // three times); the calls of the read leave in batches of READ_CHUNK_CALLS, one batch at a time.
    const { request } = http(url, {
      batch: { batchSize: READ_CHUNK_CALLS, wait: 0 },
      retryCount: 0,
      fetchFn: serial.fetchFn,
    })({ chain: chain.client.chain, timeout: ms });
    let spent = 0n;
    const send =
      (limit: bigint) =>
      async ({ method, params }: { method: string; params?: unknown }) => {
        if (deadline.aborted) throw new ChainReadAbandonedError('deadline passed during the read');
        const capped = capGas(method, params, limit);
        if (runsCode(method)) {
          const callGas = BigInt((capped as [{ gas: string }])[0].gas);
          if (spent + callGas > budget) throw new ChainReadBudgetError(budget, spent, callGas);
          spent += callGas;
        }
        return request({ method, params: capped } as never);
      };
    const withGas: WithGas = (limit) =>
      createPublicClient({
        chain: chain.client.chain,
        cacheTime: 0,
        transport: custom({ request: send(limit) }, { retryCount: 0 }),
      }) as PublicClient;
    return await untilAborted(read(withGas(gas), withGas), deadline);
  } catch (error) {
    throw readError(chain, ms, error, deadline.aborted);
  } finally {
    // The turn is held until the node has answered what it was sent (or its hold passed).
    if (release) void serial.settled().then(release);
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
  const overBudget = causes(error).find((e) => e instanceof ChainReadBudgetError);
  if (overBudget)
    return new AppError(
      PROBLEMS.SERVICE_UNAVAILABLE,
      `${service} was not asked for all of this request: its calls would carry more than the request's chain gas budget (CHAIN_REQUEST_GAS, ${overBudget.budget} gas)`,
      { cause: error, extensions: { service, reason: 'budget', budget: overBudget.budget.toString() } },
    );
  if (error instanceof ChainReadBusyError)
    return new AppError(PROBLEMS.SERVICE_UNAVAILABLE, `${service} has too many reads in progress, retry shortly`, {
      cause: error,
      extensions: { service, reason: 'busy' },
      headers: { 'Retry-After': '1' },
    });
  if (late || error instanceof ChainReadAbandonedError)
    return new AppError(PROBLEMS.SERVICE_UNAVAILABLE, `${service} did not answer within ${ms} ms, retry shortly`, {
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
 * rate limit) or the read's (its gas budget spent) rather than the called code's (a revert, out of gas, not a contract): a read throws the
 * first, and leaves out what the second failed to read.
 */
export function isNodeFailure(error: unknown): boolean {
  return causes(error).some((e) => {
    if (
      e instanceof HttpRequestError ||
      e instanceof TimeoutError ||
      e instanceof ChainReadAbandonedError ||
      e instanceof ChainReadBudgetError
    )
      return true;
    if (e instanceof Error && e.name === 'AbortError') return true;
    const code = (e as { code?: unknown }).code;
    return code === -32005 || code === -32007 || code === 429;
  });
}
