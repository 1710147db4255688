import { createHash } from 'node:crypto';
import { recordAudit, type AuditEntry } from '../../../domain/tables/audit.js';
import { withTransaction, type PgClient, type PgPool } from '../../../internal/pg.js';

type Db = Pick<PgPool | PgClient, 'query'>;
export type Actor = Pick<AuditEntry, 'actor' | 'requestId'>;

/** A blacklist entry as served (the hosted shape; `arrestTimestamp` a decimal string, the hosted bigint). */
export type BlacklistEntry = {
  id: string;
  chainId: number;
  poolAddress: string;
  userAddress: string;
  arrestTimestamp: string;
  arrestDetails: { reason?: string };
};

type Row = {
  id: string;
  chain_id: number;
  user_address: string;
  pool_address: string;
  reason: string | null;
  arrest_timestamp: string;
};

const COLUMNS = 'id, chain_id, user_address, pool_address, reason, arrest_timestamp::text AS arrest_timestamp';

function toEntry(r: Row): BlacklistEntry {
  return {
    id: r.id,
    chainId: r.chain_id,
    poolAddress: r.pool_address,
    userAddress: r.user_address,
    arrestTimestamp: r.arrest_timestamp,
    arrestDetails: r.reason === null ? {} : { reason: r.reason },
  };
}

/** Pure: the id of the entry of (chain, user, pool): sha256 of `chainId:user:pool` (lower-case), hex. */
export function blacklistId(chainId: number, user: string, pool: string): string {
  return createHash('sha256').update(`${chainId}:${user.toLowerCase()}:${pool.toLowerCase()}`).digest('hex');
}

/** Entries newest first, paged, optionally of one chain (index blacklists_recent_idx / blacklists_chain_recent_idx). */
export async function listBlacklist(
  db: Db,
  q: { chainId?: number; page: number; items: number },
): Promise<BlacklistEntry[]> {
  const { rows } =
    q.chainId === undefined
      ? await db.query<Row>(`SELECT ${COLUMNS} FROM blacklists ORDER BY arrest_timestamp DESC, id LIMIT $1 OFFSET $2`, [
          q.items,
          q.page * q.items,
        ])
      : await db.query<Row>(
          `SELECT ${COLUMNS} FROM blacklists WHERE chain_id = $1 ORDER BY arrest_timestamp DESC, id LIMIT $2 OFFSET $3`,
          [q.chainId, q.items, q.page * q.items],
        );
  return rows.map(toEntry);
}

/** Every blacklisted address (any chain), lower-case. Index blacklists_user_idx. */
export async function blacklistedAddresses(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ user_address: string }>(
    'SELECT DISTINCT user_address FROM blacklists ORDER BY user_address',
  );
  return rows.map((r) => r.user_address);
}

/** The chain ids on which `address` is blacklisted (any pool), ascending. Index blacklists_user_idx. */
export async function blacklistedChains(db: Db, address: string): Promise<number[]> {
  const { rows } = await db.query<{ chain_id: number }>(
    'SELECT DISTINCT chain_id FROM blacklists WHERE user_address = $1 ORDER BY chain_id',
    [address.toLowerCase()],
  );
  return rows.map((r) => r.chain_id);
}

/**
 * Adds (or, for the same chain, user and pool, replaces the reason and time of) an entry, with its audit row in the
 * same transaction. `created`: whether it is new.
 */
export async function addToBlacklist(
  pg: PgPool,
  by: Actor,
  x: { chainId: number; userAddress: string; poolAddress: string; reason: string | null; at: number },
): Promise<{ entry: BlacklistEntry; created: boolean }> {
  const id = blacklistId(x.chainId, x.userAddress, x.poolAddress);
  return withTransaction(pg, async (tx) => {
    const before = await tx.query<Row>(`SELECT ${COLUMNS} FROM blacklists WHERE id = $1 FOR UPDATE`, [id]);
    const { rows } = await tx.query<Row>(
      `INSERT INTO blacklists (id, chain_id, user_address, pool_address, reason, arrest_timestamp) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO UPDATE SET reason = EXCLUDED.reason, arrest_timestamp = EXCLUDED.arrest_timestamp
       RETURNING ${COLUMNS}`,
      [id, x.chainId, x.userAddress.toLowerCase(), x.poolAddress.toLowerCase(), x.reason, x.at],
    );
    const entry = toEntry(rows[0]!);
    const prior = before.rows[0] ? toEntry(before.rows[0]) : null;
    await recordAudit(tx, {
      ...by,
      action: prior ? 'update' : 'create',
      entity: 'blacklist',
      entityId: id,
      before: prior,
      after: entry,
    });
    return { entry, created: !prior };
  });
}

/** Removes every entry of `address` (every chain and pool), one audit row per entry, in one transaction. */
export async function removeFromBlacklist(pg: PgPool, by: Actor, address: string): Promise<BlacklistEntry[]> {
  return withTransaction(pg, async (tx) => {
    const { rows } = await tx.query<Row>(`DELETE FROM blacklists WHERE user_address = $1 RETURNING ${COLUMNS}`, [
      address.toLowerCase(),
    ]);
    const removed = rows.map(toEntry);
    for (const e of removed)
      await recordAudit(tx, { ...by, action: 'delete', entity: 'blacklist', entityId: e.id, before: e, after: null });
    return removed;
  });
}
