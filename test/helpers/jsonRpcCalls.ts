/**
 * The JSON-RPC plumbing of our local nodes in front of a devnet (test/helpers/flakyRpcProxy.ts,
 * scripts/bench/syntheticLogNode.ts): a body read call by call, and a call passed on unchanged.
 */

/** One JSON-RPC call as a client sends it, alone or in a batch. */
export type RpcCall = { jsonrpc?: string; id: unknown; method: string; params?: unknown[] };

/** Sends `call` to `target` as it is; returns the node's JSON-RPC response (result or error) unchanged. */
export async function forwardRpcCall(target: string, call: RpcCall): Promise<unknown> {
  const res = await fetch(target, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(call),
  });
  return res.json();
}

/** A request body answered call by call: one response for one call, an array of them for a batch. */
export async function answerRpcBody(body: string, answer: (call: RpcCall) => Promise<unknown>): Promise<unknown> {
  const parsed = JSON.parse(body) as RpcCall | RpcCall[];
  return Array.isArray(parsed) ? Promise.all(parsed.map(answer)) : answer(parsed);
}
