/**
 * The reward trees of bench:rewards (scripts/bench/rewards.ts), generated deterministically from a leaf
 * count: leaf i belongs to recipient ⌊i/2⌋ (so n/2 recipients, each holding two of the tokens) and has
 * one or two breakdowns over a few campaigns; the "changed" tree raises the amount of 1% of the leaves
 * (i % 100 = 37), as a new cumulative root does. Any leaf is computed from its index alone, so a tree
 * of a million leaves is written as a stream and its root computed from its packed leaf hashes (32
 * bytes a leaf), never from the tree as objects.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { bytesToHex } from 'viem';
import { hashLeafBytes, layersOf, NODE_BYTES, nodeAt, sortNodes } from '../../domain/rewardTreeLayout.js';
import type { Keccak } from '../../internal/keccak.js';

/**
 * A tree of the benchmark: its size, chain, reward tokens (at least two), whether 1% of its leaves
 * changed, and how many campaigns its breakdowns name (default CAMPAIGNS; with 1, every leaf has one
 * breakdown, of that campaign: the shape of a campaign that holds every leaf).
 */
export type BenchTreeSpec = {
  chainId: number;
  leaves: number;
  tokens: readonly string[];
  changed: boolean;
  campaigns?: number;
  /** The campaigns' ids, when they are real ones (created on the chain); else ids made up from `campaigns`. */
  campaignIds?: readonly string[];
};

export type BenchLeaf = {
  recipient: string;
  token: string;
  amount: bigint;
  breakdowns: { campaignId: string; reason: string; amount: bigint }[];
};

/** The campaigns a tree's breakdowns name unless its spec says otherwise. */
export const CAMPAIGNS = 20;
const UNIT = 10n ** 12n;

/** Pure: a 32-bit integer hash (a multiply-xorshift finalizer), the benchmark's only source of variety. */
export function mix32(x: number): number {
  let h = Math.imul(x ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Pure: whether leaf `i` is one of the 1% the changed tree raises. */
export const isChangedLeaf = (i: number): boolean => i % 100 === 37;

/** Pure: how many of `leaves` leaves the changed tree raises. */
export const changedLeafCount = (leaves: number): number => (leaves > 37 ? Math.floor((leaves - 38) / 100) + 1 : 0);

/** Pure: the number of recipients of a tree of `leaves` leaves. */
export const recipientCount = (leaves: number): number => Math.ceil(leaves / 2);

/** Pure: the leaf indices of recipient `r`. */
export const leavesOfRecipient = (leaves: number, r: number): number[] => [2 * r, 2 * r + 1].filter((i) => i < leaves);

/** Recipient `r`'s address: 20 bytes of keccak256("bench-rewards recipient" ‖ r), lower-case. */
export function recipientAddress(keccak: Keccak, r: number): string {
  const input = Buffer.alloc(28);
  input.write('bench-rewards recipient', 0, 'latin1');
  input.writeUInt32BE(r, 24);
  return bytesToHex(keccak.hash(input).subarray(12));
}

const campaignIds = new Map<Keccak, string[]>();

/** The first `count` campaigns breakdowns name: keccak256("bench-rewards campaign j"), j < count. */
export function benchCampaignIds(keccak: Keccak, count: number): string[] {
  let ids = campaignIds.get(keccak) ?? [];
  if (ids.length < count) {
    ids = Array.from({ length: count }, (_, j) =>
      bytesToHex(keccak.hash(Buffer.from(`bench-rewards campaign ${j}`, 'latin1'))),
    );
    campaignIds.set(keccak, ids);
  }
  return ids.slice(0, count);
}

/** Leaf `i` of the tree (`recipient`: recipientAddress of ⌊i/2⌋, passed in so a recipient's two leaves hash it once). */
export function benchLeaf(keccak: Keccak, spec: BenchTreeSpec, i: number, recipient: string): BenchLeaf {
  const r = Math.floor(i / 2);
  const token = spec.tokens[(r + (i % 2)) % spec.tokens.length]!;
  const h = mix32(i);
  const first = BigInt((h % 1_000_000) + 1) * UNIT;
  const raise = spec.changed && isChangedLeaf(i) ? BigInt((mix32(i + 1) % 1000) + 1) * UNIT : 0n;
  const count = spec.campaignIds?.length ?? spec.campaigns ?? CAMPAIGNS;
  const campaigns = spec.campaignIds ?? benchCampaignIds(keccak, count);
  const breakdowns = [{ campaignId: campaigns[h % count]!, reason: 'holder', amount: first + raise }];
  if (count > 1 && (h >>> 20) % 2 === 1)
    breakdowns.push({
      campaignId: campaigns[(h + 7) % count]!,
      reason: 'lp',
      amount: BigInt(h % 5000) * UNIT + 1n,
    });
  return { recipient, token, amount: breakdowns.reduce((s, b) => s + b.amount, 0n), breakdowns };
}

/** Every leaf in index order, one at a time (each recipient's address hashed once). */
function* leavesOf(keccak: Keccak, spec: BenchTreeSpec): Generator<BenchLeaf> {
  let recipient = '';
  for (let i = 0; i < spec.leaves; i++) {
    if (i % 2 === 0) recipient = recipientAddress(keccak, i / 2);
    yield benchLeaf(keccak, spec, i, recipient);
  }
}

/**
 * The tree's root, as the Distributor would hold it: every leaf hashed into one packed array (32 MB a
 * million leaves), sorted and folded up layer by layer (domain/rewardTreeLayout.ts), not through the
 * chunked layout the roots job stores, so a fault in that shows as a refused tree.
 */
export function benchTreeRoot(keccak: Keccak, spec: BenchTreeSpec): `0x${string}` {
  const packed = new Uint8Array(spec.leaves * NODE_BYTES);
  let i = 0;
  for (const l of leavesOf(keccak, spec))
    packed.set(hashLeafBytes(keccak, l.recipient, l.token, l.amount), NODE_BYTES * i++);
  const layers = layersOf(keccak, sortNodes(packed));
  return bytesToHex(nodeAt(layers[layers.length - 1]!, 0));
}

const entryJson = (l: BenchLeaf): string =>
  `{"recipient":"${l.recipient}","token":"${l.token}","amount":"${l.amount}","breakdowns":[${l.breakdowns
    .map((b) => `{"campaignId":"${b.campaignId}","reason":"${b.reason}","amount":"${b.amount}"}`)
    .join(',')}]}`;

/**
 * Writes the tree document (indexer/decode/parseRewardTree.ts) for `root` into a directory source,
 * `<dir>/<chainId>/<root>.json`, streamed in batches of entries and renamed into place once complete.
 * @returns the path and its size in bytes.
 */
export async function writeBenchTree(
  keccak: Keccak,
  dir: string,
  spec: BenchTreeSpec,
  root: string,
): Promise<{ file: string; bytes: number }> {
  const chainDir = join(dir, String(spec.chainId));
  await mkdir(chainDir, { recursive: true });
  const file = join(chainDir, `${root.toLowerCase()}.json`);
  const temporary = `${file}.${process.pid}.tmp`;
  const out = createWriteStream(temporary);
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => {});
  let batch = `{"root":"${root.toLowerCase()}","chainId":${spec.chainId},"rewards":[`;
  const flush = async () => {
    if (!out.write(batch)) await Promise.race([once(out, 'drain'), failed]);
    batch = '';
  };
  let separator = '';
  for (const leaf of leavesOf(keccak, spec)) {
    batch += separator + entryJson(leaf);
    separator = ',';
    if (batch.length > 1 << 20) await flush();
  }
  batch += ']}';
  await flush();
  out.end();
  await Promise.race([once(out, 'finish'), failed]);
  await rename(temporary, file);
  return { file, bytes: (await stat(file)).size };
}
