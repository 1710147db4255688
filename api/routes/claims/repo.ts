import type { PgClient, PgPool } from '../../../internal/pg.js';

type Db = Pick<PgPool | PgClient, 'query'>;

/** A claims row with the root it is attributed to and that root's breakdowns of the (recipient, token). */
export type ClaimDbRow = {
  chain_id: number;
  recipient: string;
  token: string;
  amount: string;
  block_number: string;
  block_hash: string;
  tx_hash: string;
  log_index: number;
  timestamp: string;
  root: string | null;
  breakdowns: { campaignId: string; reason: string; amount: string }[] | null;
  is_latest: boolean;
};

export type ListClaimsParams = {
  chainIds?: number[];
  recipient?: string;
  token?: string;
  campaignId?: string;
  root?: string;
  page: number;
  items: number;
};

/**
 * Claimed deltas, newest first, each attributed to the root live when it was mined: the latest
 * non-revoked root logged before the claim if its dispute period had ended at the claim's block
 * time (the end a DisputeResolved(false) recomputed, when one came after it) and no dispute was
 * open then, else the one before it (the liveRoot rule, docs/contracts.md#dispute-period-and-the-live-root), as the roots stood at the
 * claim (a root revoked later still counts). `breakdowns`
 * are that root's reward_breakdowns of the (recipient, token); `campaignId` matches claims whose
 * attributed breakdowns include the campaign. `is_latest`: no later claim of the same
 * (chain, recipient, token). Tables claims, roots, reward_breakdowns.
 */
export async function listClaims(db: Db, p: ListClaimsParams): Promise<ClaimDbRow[]> {
  const { rows } = await db.query<ClaimDbRow>(
    `SELECT c.chain_id, c.recipient, c.token, c.amount::text AS amount, c.block_number::text AS block_number, c.block_hash, c.tx_hash, c.log_index,
       c.timestamp::text AS timestamp, lr.root, bd.breakdowns,
       NOT EXISTS (SELECT 1 FROM claims l WHERE l.chain_id = c.chain_id AND l.recipient = c.recipient AND l.token = c.token
         AND (l.block_number, l.log_index) > (c.block_number, c.log_index)) AS is_latest
     FROM claims c
     LEFT JOIN LATERAL (
       SELECT x.root FROM (
         SELECT r.root, r.end_of_dispute_period, r.block_number, r.log_index, row_number() OVER (ORDER BY r.block_number DESC, r.log_index DESC) AS n
         FROM roots r WHERE r.chain_id = c.chain_id AND (r.block_number, r.log_index) < (c.block_number, c.log_index)
           -- A root revoked after the claim was still the pending tree then.
           AND (NOT r.revoked OR NOT EXISTS (SELECT 1 FROM distributor_events v WHERE v.chain_id = c.chain_id AND v.kind = 'revoked'
             AND (v.block_number, v.log_index) > (r.block_number, r.log_index) AND (v.block_number, v.log_index) < (c.block_number, c.log_index)))
         ORDER BY r.block_number DESC, r.log_index DESC LIMIT 2) x
       LEFT JOIN LATERAL (
         SELECT e.kind, e.valid, e.end_of_dispute_period FROM distributor_events e
         WHERE e.chain_id = c.chain_id AND e.kind <> 'revoked' AND (e.block_number, e.log_index) > (x.block_number, x.log_index)
           AND (e.block_number, e.log_index) < (c.block_number, c.log_index)
         ORDER BY e.block_number DESC, e.log_index DESC LIMIT 1) d ON x.n = 1
       WHERE (x.n = 1 AND d.kind IS DISTINCT FROM 'disputed'
              AND coalesce(CASE WHEN d.valid = false THEN d.end_of_dispute_period END, x.end_of_dispute_period) <= c.timestamp) OR x.n = 2
       ORDER BY x.n LIMIT 1
     ) lr ON true
     LEFT JOIN LATERAL (
       SELECT json_agg(json_build_object('campaignId', b.campaign_id, 'reason', b.reason, 'amount', b.amount::text) ORDER BY b.campaign_id, b.reason) AS breakdowns
       FROM reward_breakdowns b WHERE b.chain_id = c.chain_id AND b.root = lr.root AND b.recipient = c.recipient AND b.token = c.token
     ) bd ON true
     WHERE ($1::int[] IS NULL OR c.chain_id = ANY($1)) AND ($2::text IS NULL OR c.recipient = $2) AND ($3::text IS NULL OR c.token = $3)
       AND ($4::text IS NULL OR lr.root = $4)
       AND ($5::text IS NULL OR EXISTS (SELECT 1 FROM json_array_elements(bd.breakdowns) e WHERE lower(e->>'campaignId') = $5))
     ORDER BY c.block_number DESC, c.log_index DESC, c.chain_id LIMIT $6 OFFSET $7`,
    [
      p.chainIds ?? null,
      p.recipient?.toLowerCase() ?? null,
      p.token?.toLowerCase() ?? null,
      p.root?.toLowerCase() ?? null,
      p.campaignId?.toLowerCase() ?? null,
      p.items,
      p.page * p.items,
    ],
  );
  return rows;
}

/** Compact claims row of /v4/claims/latest: deltas summed per (recipient, tx, token). */
export type CompactClaimRow = {
  chain_id: number;
  recipient: string;
  token: string;
  block_number: string;
  timestamp: string;
  tx_hash: string;
  amount: string;
};

/** The latest claims of a chain, summed per (recipient, tx, token), newest first. Table claims. */
export async function latestClaims(db: Db, chainId: number, limit: number): Promise<CompactClaimRow[]> {
  const { rows } = await db.query<CompactClaimRow>(
    `SELECT chain_id, recipient, token, max(block_number)::text AS block_number, max(timestamp)::text AS timestamp, tx_hash, sum(amount)::text AS amount
     FROM claims WHERE chain_id = $1 GROUP BY chain_id, recipient, tx_hash, token
     ORDER BY max(block_number) DESC, min(log_index) DESC LIMIT $2`,
    [chainId, limit],
  );
  return rows;
}

/** State of the claims job on a chain: its cursor, that block's time and the number of claims stored. */
export type ClaimsSyncState = {
  cursorBlock: number | null;
  cursorTimestamp: number | null;
  cursorUpdatedAt: Date | null;
  claimCount: number;
};

/** Claims job cursor of a chain (table cursors, job `claims`) with its block time (table blocks) and claim count. */
export async function loadClaimsSyncState(db: Db, chainId: number): Promise<ClaimsSyncState> {
  const { rows } = await db.query<{
    block_number: string | null;
    timestamp: string | null;
    updated_at: Date | null;
    claim_count: string;
  }>(
    `SELECT k.block_number::text AS block_number, b.timestamp::text AS timestamp, k.updated_at,
       (SELECT count(*) FROM claims WHERE chain_id = $1)::text AS claim_count
     FROM (SELECT 1) one
     LEFT JOIN cursors k ON k.job = 'claims' AND k.chain_id = $1
     LEFT JOIN blocks b ON b.chain_id = $1 AND b.number = k.block_number`,
    [chainId],
  );
  const r = rows[0]!;
  return {
    cursorBlock: r.block_number === null ? null : Number(r.block_number),
    cursorTimestamp: r.timestamp === null ? null : Number(r.timestamp),
    cursorUpdatedAt: r.updated_at,
    claimCount: Number(r.claim_count),
  };
}

/** Number of Claimed rows of one chain, or of every chain. Table claims. */
export async function countClaims(db: Db, chainId?: number): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    'SELECT count(*)::text AS n FROM claims WHERE ($1::int IS NULL OR chain_id = $1)',
    [chainId ?? null],
  );
  return Number(rows[0]!.n);
}
