import type { PgClient, PgPool } from '../../../internal/pg.js';
import type { ApiDeps } from '../../deps.js';
import type { Handler } from '../../validate.js';
import { EPOCH_SECONDS } from '../../reads/roots/serialize.js';
import { requireConfiguredChain } from './handlers.js';
import type { chainParams, reportsQuery } from './schema.js';

type ReportRow = {
  root: string;
  chain_id: number;
  timestamp: string;
  revoked: boolean;
  is_latest: boolean;
  tx_hash: string;
  status: 'pending' | 'verified' | 'mismatch' | 'unavailable' | null;
  computed_root: string | null;
  leaves: number | null;
  checked_at: Date | null;
  disputes: number;
};

/**
 * A chain's roots rows newest first, paged, each with the check of its reward tree (reward_trees), whether it is the
 * chain's latest non-revoked root, and how many disputes were opened on it (Disputed logs after it and before the next
 * TreeUpdated). Tables roots, reward_trees, distributor_events; every lookup walks an index.
 */
async function listReports(
  db: Pick<PgPool | PgClient, 'query'>,
  chainId: number,
  q: { page: number; items: number },
): Promise<ReportRow[]> {
  const { rows } = await db.query<ReportRow>(
    `WITH latest AS (SELECT block_number, log_index FROM roots WHERE chain_id = $1 AND NOT revoked ORDER BY block_number DESC, log_index DESC LIMIT 1)
     SELECT r.root, r.chain_id, r.timestamp::text AS timestamp, r.revoked, r.tx_hash,
       EXISTS (SELECT 1 FROM latest l WHERE l.block_number = r.block_number AND l.log_index = r.log_index) AS is_latest,
       t.status, t.computed_root, t.leaves, t.checked_at,
       (SELECT count(*)::int FROM distributor_events d
        WHERE d.chain_id = r.chain_id AND d.kind = 'disputed' AND (d.block_number, d.log_index) > (r.block_number, r.log_index)
          AND (nx.block_number IS NULL OR (d.block_number, d.log_index) < (nx.block_number, nx.log_index))) AS disputes
     FROM roots r
     LEFT JOIN reward_trees t ON t.chain_id = r.chain_id AND t.root = r.root
     LEFT JOIN LATERAL (SELECT n.block_number, n.log_index FROM roots n
       WHERE n.chain_id = r.chain_id AND (n.block_number, n.log_index) > (r.block_number, r.log_index)
       ORDER BY n.block_number, n.log_index LIMIT 1) nx ON true
     WHERE r.chain_id = $1
     ORDER BY r.block_number DESC, r.log_index DESC LIMIT $2 OFFSET $3`,
    [chainId, q.items, q.page * q.items],
  );
  return rows;
}

const ZERO_ROOT = `0x${'0'.repeat(64)}`;

/** Pure: the one-line report of a root's tree check, as a reader would say it. */
export function reportOf(r: Pick<ReportRow, 'root' | 'status' | 'computed_root' | 'leaves' | 'revoked'>) {
  const tail = r.revoked ? ' The root was revoked.' : '';
  if (r.root === ZERO_ROOT) return `Zero root: no rewards.${tail}`;
  switch (r.status) {
    case 'verified':
      return `Verified: the published tree's ${r.leaves ?? 0} leaves rebuild this root.${tail}`;
    case 'mismatch':
      return `Mismatch: the published tree rebuilds ${r.computed_root ?? 'another root'}, not this root; no reward of it is served.${tail}`;
    case 'unavailable':
      return `Unavailable: the published tree could not be fetched or parsed yet; no reward of it is served.${tail}`;
    default:
      return `Pending: the published tree is not checked yet.${tail}`;
  }
}

/**
 * GET /v4/roots/reports/{chainId}: the hosted root rows `{ root, chainId, epoch, timestamp, isLatest, report }`, the
 * report being our own check of the root's published reward tree, with its structured fields beside it.
 */
export function rootReportsHandler(deps: ApiDeps): Handler<{ params: typeof chainParams; query: typeof reportsQuery }> {
  return async (ctx) => {
    const { chainId } = ctx.state.params;
    requireConfiguredChain(deps, chainId);
    ctx.body = (await listReports(deps.pg, chainId, ctx.state.query)).map((r) => ({
      root: r.root,
      chainId: r.chain_id,
      epoch: Math.floor(Number(r.timestamp) / EPOCH_SECONDS),
      timestamp: r.timestamp,
      isLatest: r.is_latest,
      report: reportOf(r),
      revoked: r.revoked,
      txHash: r.tx_hash,
      treeStatus: r.root === ZERO_ROOT ? null : (r.status ?? 'pending'),
      leaves: r.leaves,
      computedRoot: r.computed_root,
      checkedAt: r.checked_at ? r.checked_at.toISOString() : null,
      disputes: r.disputes,
    }));
  };
}
