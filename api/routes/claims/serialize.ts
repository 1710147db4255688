import type { ClaimDbRow, ClaimsSyncState, CompactClaimRow } from './repo.js';

/** Claim record (docs/api-behaviour.md#claims). */
export type ClaimResponse = {
  id: string;
  chainId: number;
  recipient: string;
  blockNumber: number;
  timestamp: number;
  token: string;
  campaignId: string | null;
  reason: string | null;
  root: string | null;
  amount: string;
  metadata: ClaimMetadata;
  isLatest: boolean;
};

/** What a claim row carries beyond the record: its log, and the breakdowns of its attributed root. */
export type ClaimMetadata = {
  txHash: string;
  logIndex: number;
  blockHash: string;
  breakdowns: { campaignId: string; reason: string; amount: string }[];
};

/**
 * Pure: a claims row → Claim. Our rows are per (recipient, token) deltas, so `campaignId` and
 * `reason` are set only when the attributed root has exactly one breakdown for the pair; otherwise
 * they are null and `metadata.breakdowns` lists the candidates. `root` is null when no root was live.
 */
export function serializeClaim(row: ClaimDbRow): ClaimResponse {
  const breakdowns = row.breakdowns ?? [];
  const only = breakdowns.length === 1 ? breakdowns[0]! : null;
  return {
    id: `${row.chain_id}-${row.tx_hash}-${row.log_index}`,
    chainId: row.chain_id,
    recipient: row.recipient,
    blockNumber: Number(row.block_number),
    timestamp: Number(row.timestamp),
    token: row.token,
    campaignId: only?.campaignId ?? null,
    reason: only?.reason ?? null,
    root: row.root,
    amount: row.amount,
    metadata: { txHash: row.tx_hash, logIndex: row.log_index, blockHash: row.block_hash, breakdowns },
    isLatest: row.is_latest,
  };
}

/** Pure: compact row of /v4/claims/latest. */
export function serializeCompactClaim(r: CompactClaimRow) {
  return {
    chainId: r.chain_id,
    recipient: r.recipient,
    token: r.token,
    blockNumber: Number(r.block_number),
    timestamp: Number(r.timestamp),
    txHash: r.tx_hash,
    amount: r.amount,
  };
}

/** Pure: the ETL watermark of a chain's claims (null before the claims job ever ran there). */
export function serializeWatermark(s: ClaimsSyncState): { lastTimestamp: number; updatedAt: string } | null {
  if (s.cursorTimestamp === null || s.cursorUpdatedAt === null) return null;
  return { lastTimestamp: s.cursorTimestamp, updatedAt: s.cursorUpdatedAt.toISOString() };
}

/** Source name of the claims pipeline: the Distributor's Claimed logs. */
export const CLAIMS_SOURCE_ID = 'distributor-claimed';

/**
 * Pure: one chain's claims status. `head` is the chain head and its time (null when the RPC did
 * not answer in time: then currentBlock, blockDifference and timeBehind are null).
 */
export function serializeClaimsStatus(
  chainId: number,
  s: ClaimsSyncState,
  head: { number: number; timestamp: number } | null,
) {
  const lastFetchedBlock = s.cursorBlock ?? 0;
  return {
    chainId,
    sources: [
      {
        sourceId: CLAIMS_SOURCE_ID,
        chainId,
        currentBlock: head?.number ?? null,
        lastFetchedBlock,
        blockDifference: head ? Math.max(0, head.number - lastFetchedBlock) : null,
        claimCount: s.claimCount,
        timeBehind: head && s.cursorTimestamp !== null ? Math.max(0, head.timestamp - s.cursorTimestamp) : null,
      },
    ],
  };
}
