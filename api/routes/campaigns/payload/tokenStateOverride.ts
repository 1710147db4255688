import { encodeAbiParameters, encodeFunctionData, erc20Abi, keccak256, pad, toHex, type Address, type Hex, type PublicClient, type StateOverride } from 'viem';

/** Mapping base slots probed, in declaration order: covers OpenZeppelin (0, 1) and most hand-written tokens. */
const PROBED_SLOTS = 10;
const PROBE_VALUE = 0x5eed_c0ffee_5eedn;

const mappingSlot = (key: Address | Hex, base: Hex | bigint): Hex =>
  keccak256(encodeAbiParameters([{ type: typeof key === 'string' && key.length === 42 ? 'address' : 'bytes32' }, { type: 'uint256' }], [key, typeof base === 'bigint' ? base : BigInt(base)]));

/** Pure: the storage slot of `balanceOf[owner]` when the mapping is declared at `base` (Solidity layout). */
export const balanceSlot = (owner: Address, base: number): Hex => mappingSlot(owner, BigInt(base));

/** Pure: the storage slot of `allowance[owner][spender]` when the mapping is declared at `base`. */
export const allowanceSlot = (owner: Address, spender: Address, base: number): Hex => mappingSlot(spender, mappingSlot(owner, BigInt(base)));

/**
 * The slot among `candidates` that drives `read`: the first one whose override makes the token
 * answer the probe value (eth_call with a state override; the chain state is not touched).
 */
async function probe(client: PublicClient, token: Address, data: Hex, candidates: Hex[]): Promise<Hex | null> {
  const answers = await Promise.all(candidates.map(async (slot) => {
    const stateOverride: StateOverride = [{ address: token, stateDiff: [{ slot, value: pad(toHex(PROBE_VALUE)) }] }];
    const { data: out } = await client.call({ to: token, data, stateOverride }).catch(() => ({ data: undefined }));
    return out !== undefined && out !== '0x' && BigInt(out) === PROBE_VALUE;
  }));
  const index = answers.indexOf(true);
  return index < 0 ? null : candidates[index]!;
}

/**
 * A state override giving `owner` a balance of and an allowance to `spender` for `amount` of
 * `token`, so a creation can be simulated before the approval is sent; null when the token's
 * storage layout is not the standard one (then the simulation is not performed, never faked).
 */
export async function fundedStateOverride(client: PublicClient, p: { token: Address; owner: Address; spender: Address; amount: bigint }): Promise<StateOverride | null> {
  const bases = Array.from({ length: PROBED_SLOTS }, (_, i) => i);
  const [balance, allowance] = await Promise.all([
    probe(client, p.token, encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [p.owner] }), bases.map((b) => balanceSlot(p.owner, b))),
    probe(client, p.token, encodeFunctionData({ abi: erc20Abi, functionName: 'allowance', args: [p.owner, p.spender] }), bases.map((b) => allowanceSlot(p.owner, p.spender, b))),
  ]);
  if (!balance || !allowance) return null;
  const value = pad(toHex(p.amount));
  return [{ address: p.token, stateDiff: [{ slot: balance, value }, { slot: allowance, value }] }];
}
