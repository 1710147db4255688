import type { DisputeRow, DisputeStatus } from './repo.js';

/** How a dispute ended: the DisputeResolved log (`valid` true: the root was revoked; false: the period restarted). */
export type DisputeResolution = {
  valid: boolean;
  resolvedAt: number;
  blockNumber: number;
  logIndex: number;
  txHash: string;
  /** For an invalid dispute: the dispute period's new end, recomputed from the resolution (null when valid). */
  endOfDisputePeriod: number | null;
};

/** One dispute of a root as /v4/disputes serves it (docs in api/routes/disputes/router.ts). */
export type DisputeResponse = {
  chainId: number;
  root: string | null;
  disputer: string | null;
  message: string;
  createdAt: number;
  blockNumber: number;
  logIndex: number;
  txHash: string;
  status: DisputeStatus;
  resolution: DisputeResolution | null;
  rootRevoked: boolean;
};

/** Pure: a DisputeRow → DisputeResponse. A dispute whose next dispute log is not a DisputeResolved is open. */
export function serializeDispute(r: DisputeRow): DisputeResponse {
  const resolved = r.resolved_kind === 'dispute_resolved';
  return {
    chainId: r.chain_id,
    root: r.root,
    disputer: r.disputer,
    message: r.reason ?? '',
    createdAt: Number(r.timestamp),
    blockNumber: Number(r.block_number),
    logIndex: r.log_index,
    txHash: r.tx_hash,
    status: resolved ? (r.valid ? 'valid' : 'invalid') : 'open',
    resolution: resolved
      ? {
          valid: r.valid === true,
          resolvedAt: Number(r.resolved_at),
          blockNumber: Number(r.resolved_block),
          logIndex: r.resolved_log_index ?? 0,
          txHash: r.resolved_tx ?? '',
          endOfDisputePeriod: r.resolved_end === null ? null : Number(r.resolved_end),
        }
      : null,
    rootRevoked: r.root_revoked === true,
  };
}
