import {
  encodeAbiParameters,
  encodeFunctionData,
  erc20Abi,
  keccak256,
  pad,
  toHex,
  type Address,
  type Hex,
  type PublicClient,
  type StateOverride,
} from 'viem';

/** Mapping base slots probed, in declaration order: covers OpenZeppelin (0, 1) and most hand-written tokens. */
const PROBED_SLOTS = 10;
const PROBE_VALUE = 0x5eed_c0ffee_5eedn;

/**
 * How a compiler places `map[key]` of a mapping declared at `base`: Solidity hashes the key then
 * the slot, Vyper (HashMap) the slot then the key.
 */
export type StorageLayout = 'solidity' | 'vyper';
const LAYOUTS: StorageLayout[] = ['solidity', 'vyper'];

const mappingSlot = (layout: StorageLayout, key: Address | Hex, base: Hex | bigint): Hex => {
  const keyType = { type: typeof key === 'string' && key.length === 42 ? 'address' : 'bytes32' } as const;
  const slot = typeof base === 'bigint' ? base : BigInt(base);
  return layout === 'solidity'
    ? keccak256(encodeAbiParameters([keyType, { type: 'uint256' }], [key, slot]))
    : keccak256(encodeAbiParameters([{ type: 'uint256' }, keyType], [slot, key]));
};

/** Pure: the storage slot of `balanceOf[owner]` when the mapping is declared at `base`. */
export const balanceSlot = (owner: Address, base: number, layout: StorageLayout = 'solidity'): Hex =>
  mappingSlot(layout, owner, BigInt(base));

/** Pure: the storage slot of `allowance[owner][spender]` when the mapping is declared at `base`. */
export const allowanceSlot = (
  owner: Address,
  spender: Address,
  base: number,
  layout: StorageLayout = 'solidity',
): Hex => mappingSlot(layout, spender, mappingSlot(layout, owner, BigInt(base)));

type Found = { layout: StorageLayout; base: number };
/** Where each token keeps balances and allowances, per chain (its client or `chain` key): probed once per process. */
const found = new WeakMap<object, Map<Address, { balance: Found; allowance: Found }>>();

/**
 * The candidate that drives `read`: the first one whose slot override makes the token answer the
 * probe value (eth_call with a state override; the chain state is not touched).
 */
async function probe<T extends { slot: Hex }>(
  client: PublicClient,
  token: Address,
  data: Hex,
  candidates: T[],
): Promise<T | null> {
  const answers = await Promise.all(
    candidates.map(async ({ slot }) => {
      const stateOverride: StateOverride = [{ address: token, stateDiff: [{ slot, value: pad(toHex(PROBE_VALUE)) }] }];
      const { data: out } = await client.call({ to: token, data, stateOverride }).catch(() => ({ data: undefined }));
      return out !== undefined && out !== '0x' && BigInt(out) === PROBE_VALUE;
    }),
  );
  const index = answers.indexOf(true);
  return index < 0 ? null : candidates[index]!;
}

/**
 * A state override giving `owner` a balance of and an allowance to `spender` for `amount` of
 * `token`, so a creation can be simulated before the approval is sent; null when the token keeps
 * them elsewhere than a Solidity or Vyper mapping at slots 0–9 (then the simulation is not
 * performed, never faked). The layout found is remembered per token and `chain` (default: the client;
 * a request's bounded client is new each time, so the route passes its chain client), so later
 * requests make no probe.
 */
export async function fundedStateOverride(
  client: PublicClient,
  p: { token: Address; owner: Address; spender: Address; amount: bigint },
  chain: object = client,
): Promise<StateOverride | null> {
  const token = p.token.toLowerCase() as Address;
  let perChain = found.get(chain);
  if (!perChain) found.set(chain, (perChain = new Map()));
  let where = perChain.get(token);
  if (!where) {
    const candidates = LAYOUTS.flatMap((layout) =>
      Array.from({ length: PROBED_SLOTS }, (_, base) => ({ layout, base })),
    );
    const [balance, allowance] = await Promise.all([
      probe(
        client,
        p.token,
        encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [p.owner] }),
        candidates.map((c) => ({ ...c, slot: balanceSlot(p.owner, c.base, c.layout) })),
      ),
      probe(
        client,
        p.token,
        encodeFunctionData({ abi: erc20Abi, functionName: 'allowance', args: [p.owner, p.spender] }),
        candidates.map((c) => ({ ...c, slot: allowanceSlot(p.owner, p.spender, c.base, c.layout) })),
      ),
    ]);
    if (!balance || !allowance) return null;
    where = {
      balance: { layout: balance.layout, base: balance.base },
      allowance: { layout: allowance.layout, base: allowance.base },
    };
    if (perChain.size > 1000) perChain.clear();
    perChain.set(token, where);
  }
  const value = pad(toHex(p.amount));
  return [
    {
      address: p.token,
      stateDiff: [
        { slot: balanceSlot(p.owner, where.balance.base, where.balance.layout), value },
        { slot: allowanceSlot(p.owner, p.spender, where.allowance.base, where.allowance.layout), value },
      ],
    },
  ];
}
