import { type Address, concat, encodeAbiParameters, getAddress, type Hex, hexToBigInt, keccak256 } from 'viem';

/** One row of Merkl's published tree document (AngleProtocol/merkl-dispute src/providers/tree/ExpandedLeaf.ts). */
export type MerklRow = {
  campaignId: string;
  recipient: string;
  reason: string;
  rewardToken: string;
  amount: string;
  lastProcessedTimestamp: number;
  auxiliaryData1?: number;
  auxiliaryData2?: number;
};

/** A Merkl tree built from its rows: root, and per (recipient, token) its summed amount and proof. */
export type MerklTree = {
  root: Hex;
  leaves: Map<string, { recipient: Address; token: Address; amount: bigint; proof: Hex[] }>;
};

/** Key of MerklTree.leaves: `${recipient}-${token}`, lower-cased. */
export const merklLeafKey = (recipient: string, token: string) => `${recipient}-${token}`.toLowerCase();

const pair = (a: Hex, b: Hex): Hex =>
  hexToBigInt(a) < hexToBigInt(b) ? keccak256(concat([a, b])) : keccak256(concat([b, a]));

/**
 * The tree Merkl's dispute bot builds from a document's rows (merkl-dispute BaseTree.buildMerklTree
 * with merkletreejs `{ hashLeaves: false, sortLeaves: true, sortPairs: true }`), written here on its
 * own from viem's keccak256 and ABI encoder, not from the service's tree code, so the test checks the
 * service against an independent build (the merkletreejs package itself is not installed): amounts
 * summed per (checksummed recipient, checksummed token), zero sums dropped, leaf
 * `keccak256(abi.encode(address, address, uint256))`, leaves sorted ascending, pairs hashed smallest
 * first, an odd last node carried up unchanged.
 */
export function buildMerklTree(rows: readonly MerklRow[]): MerklTree {
  const sums = new Map<string, { recipient: Address; token: Address; amount: bigint }>();
  for (const r of rows) {
    const recipient = getAddress(r.recipient);
    const token = getAddress(r.rewardToken);
    const id = `${recipient}-${token}`;
    const sum = sums.get(id) ?? { recipient, token, amount: 0n };
    sum.amount += BigInt(r.amount);
    sums.set(id, sum);
  }
  const leaves = [...sums.values()]
    .filter((l) => l.amount > 0n)
    .map((l) => ({
      ...l,
      hash: keccak256(
        encodeAbiParameters(
          [{ type: 'address' }, { type: 'address' }, { type: 'uint256' }],
          [l.recipient, l.token, l.amount],
        ),
      ),
    }))
    .sort((a, b) => (hexToBigInt(a.hash) < hexToBigInt(b.hash) ? -1 : 1));
  const layers: Hex[][] = [leaves.map((l) => l.hash)];
  while (layers.at(-1)!.length > 1) {
    const below = layers.at(-1)!;
    const above: Hex[] = [];
    for (let i = 0; i < below.length; i += 2)
      above.push(i + 1 < below.length ? pair(below[i]!, below[i + 1]!) : below[i]!);
    layers.push(above);
  }
  const result: MerklTree = { root: layers.at(-1)![0] ?? `0x${'0'.repeat(64)}`, leaves: new Map() };
  leaves.forEach((leaf, index) => {
    const proof: Hex[] = [];
    let i = index;
    for (const layer of layers.slice(0, -1)) {
      const sibling = layer[i ^ 1];
      if (sibling !== undefined) proof.push(sibling);
      i >>= 1;
    }
    result.leaves.set(merklLeafKey(leaf.recipient, leaf.token), {
      recipient: leaf.recipient,
      token: leaf.token,
      amount: leaf.amount,
      proof,
    });
  });
  return result;
}
