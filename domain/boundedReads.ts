import {
  decodeAbiParameters,
  decodeFunctionResult,
  encodeDeployData,
  encodeFunctionData,
  type Abi,
  type Address,
} from 'viem';
import type { ChainClient } from '../internal/rpc.js';
import { boundedMulticallAbi, boundedMulticallBytecode } from './abis/boundedMulticall.js';

/** One view read of a bounded multicall (viem's multicall `contracts` entry). */
export type BoundedCall = { address: string; abi: Abi; functionName: string; args?: readonly unknown[] };

/** What a read gave, as viem's `multicall({ allowFailure: true })` says it. */
export type BoundedResult = { status: 'success'; result: unknown } | { status: 'failure'; error: Error };

/** Gas of each read when the chain client names none (its INDEXER_READ_GAS default). */
export const DEFAULT_READ_GAS = 300_000n;

/** The most one eth_call of a bounded multicall carries when the client names none (INDEXER_CALL_GAS's default). */
export const DEFAULT_CALL_GAS = 10_000_000n;
/** The creation call itself: calldata, the loop, the encoding of the results (measured ~0.2M for 50 reads). */
const BASE_GAS = 1_000_000n;
/** Per read beyond its own gas: the loop, its memory and copies. */
const PER_READ_GAS = 20_000n;
/** Return data kept per read (above it the read fails, nothing copied): a token's name, a market's struct. */
export const MAX_RETURN_BYTES = 1024;

const RESULTS = [
  {
    type: 'tuple[]',
    components: [
      { name: 'success', type: 'bool' },
      { name: 'returnData', type: 'bytes' },
    ],
  },
] as const;

/** Pure: the gas one bounded multicall of `n` reads of `gasEach` carries (memory for its results included). */
export function multicallGas(n: number, gasEach: bigint): bigint {
  const words = BigInt(Math.ceil((n * (2 * MAX_RETURN_BYTES + 256)) / 32));
  return BASE_GAS + BigInt(n) * (gasEach + PER_READ_GAS) + 3n * words + (words * words) / 512n;
}

/** Pure: how many reads of `gasEach` one call of at most `callGas` takes (at least one, at most 500). */
export function readsPerCall(gasEach: bigint, callGas: bigint): number {
  let n = Math.min(500, Math.max(1, Number((callGas - BASE_GAS) / (gasEach + PER_READ_GAS))));
  while (n > 1 && multicallGas(n, gasEach) > callGas) n -= 1;
  return n;
}

/**
 * View reads of contracts named by campaigns (anyone's), in deployless multicalls whose every read has
 * its own gas limit (`gasEach`, default the client's readGas: contracts/src/BoundedMulticall.sol), as
 * many per call as fit the client's callGas (INDEXER_CALL_GAS): a
 * target that loops, reverts, returns too much or has no code fails alone, and what one call makes a
 * node run is bounded (multicallGas). Multicall3 cannot do this: it forwards 63/64 of the gas left, so
 * one looping target spent the whole call's budget and failed every read after it. The calls of one
 * batch leave together (JSON-RPC batching).
 * @returns one result per read, in order (like viem's `multicall({ allowFailure: true })`).
 * @throws the node's failure (unreachable, timeout): the batch as a whole failed, not one read.
 */
export async function readBounded(
  { client, readGas, callGas }: ChainClient,
  calls: readonly BoundedCall[],
  options: { gasEach?: bigint; blockNumber?: bigint } = {},
): Promise<BoundedResult[]> {
  const gasEach = options.gasEach ?? readGas ?? DEFAULT_READ_GAS;
  const size = readsPerCall(gasEach, callGas ?? DEFAULT_CALL_GAS);
  const chunks: BoundedCall[][] = [];
  for (let i = 0; i < calls.length; i += size) chunks.push(calls.slice(i, i + size));
  const answers = await Promise.all(
    chunks.map(async (chunk) => {
      const data = encodeDeployData({
        abi: boundedMulticallAbi,
        bytecode: boundedMulticallBytecode,
        args: [
          chunk.map((c) => ({
            target: c.address as Address,
            data: encodeFunctionData({ abi: c.abi, functionName: c.functionName, args: c.args ?? [] } as never),
          })),
          gasEach,
          BigInt(MAX_RETURN_BYTES),
        ],
      });
      const { data: returned } = await client.call({
        data,
        gas: multicallGas(chunk.length, gasEach),
        ...(options.blockNumber === undefined ? {} : { blockNumber: options.blockNumber }),
      });
      if (!returned) throw new Error('bounded multicall returned nothing');
      const [results] = decodeAbiParameters(RESULTS, returned);
      return chunk.map((c, i): BoundedResult => decodeRead(c, results[i]!));
    }),
  );
  return answers.flat();
}

/** Pure: one read's result decoded by its ABI; a failed or undecodable read is a failure. */
function decodeRead(call: BoundedCall, r: { success: boolean; returnData: `0x${string}` }): BoundedResult {
  if (!r.success) return { status: 'failure', error: new Error(`${call.functionName} failed on ${call.address}`) };
  try {
    const result = decodeFunctionResult({
      abi: call.abi,
      functionName: call.functionName,
      data: r.returnData,
    } as never);
    return { status: 'success', result };
  } catch (error) {
    return { status: 'failure', error: error as Error };
  }
}
