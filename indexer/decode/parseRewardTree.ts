import { Ajv } from 'ajv';
import type { Address, Hex } from 'viem';
import { BaseError } from '../../internal/errors.js';

/** One campaign's share of a leaf. `amount` is a decimal string of base units. */
export type RewardTreeBreakdown = { campaignId: string; reason: string; amount: string };

/** One leaf: what `recipient` has earned of `token` in total (cumulative, never a delta). */
export type RewardTreeEntry = { recipient: Address; token: Address; amount: string; breakdowns: RewardTreeBreakdown[] };

/**
 * A reward tree as published for a root (one JSON document per chain and root):
 *
 * ```json
 * {
 *   "root": "0x11fd…f85e",            // bytes32 hex: the Merkle root this tree hashes to
 *   "chainId": 31337,                  // chain whose Distributor holds the root
 *   "rewards": [
 *     {
 *       "recipient": "0xaaaa…aaaa",    // address
 *       "token": "0x2222…2222",        // reward token address
 *       "amount": "1000",              // cumulative amount, decimal string of base units
 *       "breakdowns": [                // per-campaign split; amounts sum to `amount`
 *         { "campaignId": "0xecd3…0cc1", "reason": "holder", "amount": "1000" }
 *       ]
 *     }
 *   ]
 * }
 * ```
 * Addresses and the root may be of any case (they are lower-cased when parsed); amounts are
 * non-negative integers without leading zeros (at most 78 digits, uint256); unknown fields are
 * ignored. One entry per (recipient, token): the leaf is `keccak256(abi.encode(recipient, token,
 * amount))` (docs/contracts.md#reward-tree).
 */
export type RewardTreeFile = { root: Hex; chainId: number; rewards: RewardTreeEntry[] };

/** The document is not a reward tree (bad JSON, wrong shape, or not the tree that was asked for). */
export class RewardTreeFormatError extends BaseError {
  override name = 'RewardTreeFormatError';
}

const AMOUNT = { type: 'string', pattern: '^(0|[1-9][0-9]{0,77})$' } as const;
const ADDRESS = { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' } as const;

/** One entry of `rewards` (readRewardTree validates entries one by one against it). */
export const REWARD_TREE_ENTRY_SCHEMA = {
  type: 'object',
  required: ['recipient', 'token', 'amount', 'breakdowns'],
  properties: {
    recipient: ADDRESS,
    token: ADDRESS,
    amount: AMOUNT,
    breakdowns: {
      type: 'array',
      items: {
        type: 'object',
        required: ['campaignId', 'reason', 'amount'],
        properties: {
          campaignId: { type: 'string', minLength: 1, maxLength: 200 },
          reason: { type: 'string', maxLength: 1000 },
          amount: AMOUNT,
        },
      },
    },
  },
} as const;

const schema = {
  type: 'object',
  required: ['root', 'chainId', 'rewards'],
  properties: {
    root: { type: 'string', pattern: '^0x[0-9a-fA-F]{64}$' },
    chainId: { type: 'integer', minimum: 1 },
    rewards: { type: 'array', items: REWARD_TREE_ENTRY_SCHEMA },
  },
} as const;

const validate = new Ajv({ allErrors: false }).compile<RewardTreeFile>(schema);

/**
 * Validates a parsed JSON document as a RewardTreeFile and normalizes addresses and root to lower case.
 * @throws RewardTreeFormatError naming the first offending field.
 */
export function parseRewardTree(document: unknown): RewardTreeFile {
  if (!validate(document)) {
    const e = validate.errors?.[0];
    const field = e
      ? `${e.instancePath || '/'}${e.keyword === 'required' ? `/${String(e.params['missingProperty'])}` : ''}`
      : '/';
    throw new RewardTreeFormatError(`invalid reward tree: ${field} ${e?.message ?? 'is invalid'}`, {
      details: { field },
    });
  }
  return {
    root: document.root.toLowerCase() as Hex,
    chainId: document.chainId,
    rewards: document.rewards.map((r) => ({
      recipient: r.recipient.toLowerCase() as Address,
      token: r.token.toLowerCase() as Address,
      amount: r.amount,
      breakdowns: r.breakdowns.map((b) => ({ campaignId: b.campaignId, reason: b.reason, amount: b.amount })),
    })),
  };
}

/**
 * Parses the text of a tree document (JSON) with `parseRewardTree`.
 * @throws RewardTreeFormatError when the text is not JSON or not a tree.
 */
export function parseRewardTreeJson(text: string): RewardTreeFile {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (cause) {
    throw new RewardTreeFormatError('invalid reward tree: not JSON', { cause });
  }
  return parseRewardTree(document);
}
