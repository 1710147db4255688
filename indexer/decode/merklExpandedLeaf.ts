import type { Address } from 'viem';

/**
 * One row of Merkl's own published tree document (`{bucket}/{chainId}/{root}.json`, what its dispute
 * bot reads: AngleProtocol/merkl-dispute src/providers/tree/ExpandedLeaf.ts): the document is a bare
 * JSON array of such rows, one per (campaign, recipient, reason),
 *
 * ```json
 * [
 *   {
 *     "campaignId": "0xecd3…0cc1",
 *     "recipient": "0xAaAa…aAaA",        // checksummed address (any case is read)
 *     "reason": "holder",
 *     "rewardToken": "0x2222…2222",
 *     "amount": "1000",                  // cumulative, decimal string of base units
 *     "lastProcessedTimestamp": 1700000000,
 *     "auxiliaryData1": 0                // optional, like auxiliaryData2
 *   }
 * ]
 * ```
 * The leaf of (recipient, rewardToken) is the sum of its rows' amounts, a zero sum is no leaf
 * (merkl-dispute BaseTree.buildMerklTree); each row becomes a breakdown (campaignId, reason) of that
 * leaf. `lastProcessedTimestamp` and the auxiliary data are not kept.
 */
export type MerklExpandedRow = {
  campaignId: string;
  /** Lower-cased. */
  recipient: Address;
  reason: string;
  /** `rewardToken`, lower-cased. */
  token: Address;
  amount: string;
};

const AMOUNT = { type: 'string', pattern: '^(0|[1-9][0-9]{0,77})$' } as const;
const ADDRESS = { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' } as const;

/** One element of the array (readTreeDocument validates rows one by one against it); other fields are ignored. */
export const MERKL_EXPANDED_LEAF_SCHEMA = {
  type: 'object',
  required: ['campaignId', 'recipient', 'reason', 'rewardToken', 'amount'],
  properties: {
    campaignId: { type: 'string', minLength: 1, maxLength: 200 },
    recipient: ADDRESS,
    reason: { type: 'string', maxLength: 1000 },
    rewardToken: ADDRESS,
    amount: AMOUNT,
    lastProcessedTimestamp: { type: 'number' },
  },
} as const;

/** The fields that tell a Merkl row from anything else: an array whose first element lacks them is no Merkl document. */
export const MERKL_ROW_MARKS = ['campaignId', 'rewardToken'] as const;

/** Pure: the row as staged (addresses lower-cased, only the fields kept). */
export function toMerklRow(value: {
  campaignId: string;
  recipient: string;
  reason: string;
  rewardToken: string;
  amount: string;
}): MerklExpandedRow {
  return {
    campaignId: value.campaignId,
    recipient: value.recipient.toLowerCase() as Address,
    reason: value.reason,
    token: value.rewardToken.toLowerCase() as Address,
    amount: value.amount,
  };
}
