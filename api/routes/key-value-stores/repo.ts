import {
  withTransaction as inWriteTransaction,
  writeInOneRoundTrip,
  type PgClient,
  type PgPool,
} from '../../../internal/pg.js';
import type { AccessMode, CreateStoreBody, EntryInput, QuotaBody, StoreType, UpdateStoreBody } from './schema.js';

export type QuotaRow = {
  owner_address: string;
  max_configs: number;
  max_size_limit: number;
  allowed_types: StoreType[];
  created_at: Date;
  updated_at: Date;
};
export type StoreRow = {
  key: string;
  id: string;
  owner_address: string;
  type: StoreType;
  description: string | null;
  size_limit: number;
  public_read: boolean;
  access_mode: AccessMode;
  entry_count: number;
  created_at: Date;
  updated_at: Date;
};
export type EntryRow = { address: string; value: string; written_by: string; created_at: Date; updated_at: Date };

/** Why a write was refused; the router turns each into its problem body. */
export type KvRefusal =
  | { refused: 'no-quota' }
  | { refused: 'type-not-allowed'; allowed: StoreType[] }
  | { refused: 'too-many-stores'; max: number }
  | { refused: 'exists' }
  | { refused: 'missing' }
  | { refused: 'below-count'; count: number }
  | { refused: 'store-full'; sizeLimit: number; count: number; adding: number }
  | { refused: 'written-by-another' };

export const isRefusal = (r: unknown): r is KvRefusal => typeof r === 'object' && r !== null && 'refused' in r;

/** Grants or replaces a creator's quota (back office). Tables: kv_quotas. */
export async function upsertQuota(db: PgPool, q: QuotaBody): Promise<QuotaRow> {
  return inWriteTransaction(
    db,
    async (tx) =>
      (
        await tx.query<QuotaRow>(
          `INSERT INTO kv_quotas (owner_address, max_configs, max_size_limit, allowed_types) VALUES ($1, $2, $3, $4)
     ON CONFLICT (owner_address) DO UPDATE SET max_configs = EXCLUDED.max_configs, max_size_limit = EXCLUDED.max_size_limit,
       allowed_types = EXCLUDED.allowed_types, updated_at = now()
     RETURNING *`,
          [q.ownerAddress.toLowerCase(), q.maxConfigs, q.maxSizeLimit, q.allowedTypes],
        )
      ).rows[0]!,
  );
}

/**
 * Creates a store under the owner's quota, which is locked for the transaction so two racing
 * creations cannot both pass `maxConfigs`. `sizeLimit` defaults to the quota's `maxSizeLimit` and is
 * capped at it (the spec: "capped at the caller's quota"; the row says what was applied).
 * Tables: kv_quotas, kv_stores.
 */
export async function createStore(
  db: PgPool,
  owner: string,
  key: string,
  body: CreateStoreBody,
): Promise<StoreRow | KvRefusal> {
  return inWriteTransaction(db, async (tx) => {
    const quota = (await tx.query<QuotaRow>('SELECT * FROM kv_quotas WHERE owner_address = $1 FOR UPDATE', [owner]))
      .rows[0];
    if (!quota) return { refused: 'no-quota' };
    if (!quota.allowed_types.includes(body.type)) return { refused: 'type-not-allowed', allowed: quota.allowed_types };
    const sizeLimit = Math.min(body.sizeLimit ?? quota.max_size_limit, quota.max_size_limit);
    const {
      rows: [owned],
    } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM kv_stores WHERE owner_address = $1', [owner]);
    if (owned!.n >= quota.max_configs) return { refused: 'too-many-stores', max: quota.max_configs };
    const { rows } = await tx.query<StoreRow>(
      `INSERT INTO kv_stores (key, owner_address, type, description, size_limit, public_read, access_mode)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (key) DO NOTHING RETURNING *`,
      [key, owner, body.type, body.description ?? null, sizeLimit, body.publicRead, body.accessMode],
    );
    return rows[0] ?? { refused: 'exists' };
  });
}

/** Stores owned by an address, by key. Tables: kv_stores. */
export async function listStores(db: PgPool, owner: string): Promise<StoreRow[]> {
  return (await db.query<StoreRow>('SELECT * FROM kv_stores WHERE owner_address = $1 ORDER BY key', [owner])).rows;
}

export async function getStore(db: PgPool, key: string): Promise<StoreRow | null> {
  return (await db.query<StoreRow>('SELECT * FROM kv_stores WHERE key = $1', [key])).rows[0] ?? null;
}

/**
 * Updates an owned store. A new `sizeLimit` is capped at the owner's current quota and must hold the
 * entries already stored. Tables: kv_quotas, kv_stores.
 */
export async function updateStore(
  db: PgPool,
  owner: string,
  key: string,
  patch: UpdateStoreBody,
): Promise<StoreRow | KvRefusal> {
  return inWriteTransaction(db, async (tx) => {
    const store = await lockStore(tx, key);
    if (!store || store.owner_address !== owner) return { refused: 'missing' };
    let sizeLimit = patch.sizeLimit;
    if (sizeLimit !== undefined) {
      const quota = (await tx.query<QuotaRow>('SELECT * FROM kv_quotas WHERE owner_address = $1', [owner])).rows[0];
      if (!quota) return { refused: 'no-quota' };
      sizeLimit = Math.min(sizeLimit, quota.max_size_limit);
      if (sizeLimit < store.entry_count) return { refused: 'below-count', count: store.entry_count };
    }
    return (
      await tx.query<StoreRow>(
        `UPDATE kv_stores SET description = CASE WHEN $2::boolean THEN $3 ELSE description END, public_read = COALESCE($4, public_read),
         size_limit = COALESCE($5, size_limit), access_mode = COALESCE($6, access_mode), updated_at = now()
       WHERE key = $1 RETURNING *`,
        [
          key,
          patch.description !== undefined,
          patch.description ?? null,
          patch.publicRead ?? null,
          sizeLimit ?? null,
          patch.accessMode ?? null,
        ],
      )
    ).rows[0]!;
  });
}

/** Deletes an owned store with all its entries (cascade). Tables: kv_stores, kv_entries. */
export async function deleteStore(db: PgPool, owner: string, key: string): Promise<boolean> {
  return inWriteTransaction(db, async (tx) =>
    Boolean((await tx.query('DELETE FROM kv_stores WHERE key = $1 AND owner_address = $2', [key, owner])).rowCount),
  );
}

async function lockStore(tx: PgClient, key: string): Promise<StoreRow | undefined> {
  return (await tx.query<StoreRow>('SELECT * FROM kv_stores WHERE key = $1 FOR UPDATE', [key])).rows[0];
}

/**
 * Upserts entries (de-duplicated by address, the last one wins) in one transaction under the store
 * row's lock, sent in one round trip (writeInOneRoundTrip) so concurrent writers of a store wait
 * for PostgreSQL's work only: the store row is locked first, the entries are written in address
 * order (no two batches can deadlock on each other's entries), and the store's entry_count grows by
 * the new ones. If that passes its `size_limit`, the table's CHECK fails the statement and the
 * whole batch is rolled back: a batch that does not fit lands not at all, under any concurrency.
 * Tables: kv_stores, kv_entries.
 */
export async function upsertEntries(
  db: PgPool,
  key: string,
  entries: EntryInput[],
  writer: string,
  { ownEntriesOnly = false }: UpsertEntriesOptions = {},
): Promise<{ rows: EntryRow[] } | KvRefusal> {
  const byAddress = new Map(entries.map((e) => [e.address.toLowerCase(), e.value]));
  const addresses = [...byAddress.keys()].sort();
  try {
    const [written] = await writeInOneRoundTrip(db, (literal) => {
      const array = (xs: string[]) => `ARRAY[${xs.map(literal).join(', ')}]::text[]`;
      return [
        `WITH store AS (SELECT key FROM kv_stores WHERE key = ${literal(key)} FOR UPDATE),
        ins AS (
          INSERT INTO kv_entries (store_key, address, value, written_by)
          SELECT s.key, t.a, t.v, ${literal(writer)} FROM store s, unnest(${array(addresses)}, ${array(addresses.map((a) => byAddress.get(a)!))}) AS t(a, v) ORDER BY t.a
          ON CONFLICT (store_key, address) DO UPDATE SET value = EXCLUDED.value, written_by = EXCLUDED.written_by, updated_at = now()
          ${ownEntriesOnly ? 'WHERE kv_entries.written_by = EXCLUDED.written_by' : ''}
          RETURNING address, value, written_by, created_at, updated_at, (xmax = 0) AS inserted),
        grown AS (
          UPDATE kv_stores SET entry_count = entry_count + n.added, updated_at = now()
          FROM (SELECT count(*)::int AS added FROM ins WHERE inserted) n WHERE key = ${literal(key)} AND n.added > 0)
        SELECT address, value, written_by, created_at, updated_at FROM ins`,
      ];
    });
    const rows = new Map((written!.rows as EntryRow[]).map((row) => [row.address, row]));
    if (ownEntriesOnly && rows.size < byAddress.size && (await entriesWrittenByOthers(db, key, addresses, writer)))
      return { refused: 'written-by-another' };
    if (!rows.size) return { refused: 'missing' };
    return { rows: [...byAddress.keys()].map((a) => rows.get(a)!) }; // in the caller's order
  } catch (error) {
    const e = error as { code?: string; table?: string };
    if (e.code !== '23514' || e.table !== 'kv_stores') throw error;
    return storeFullRefusal(db, key, addresses);
  }
}

export type UpsertEntriesOptions = {
  /**
   * A wallet writing its own entry in a PUBLIC store: an entry someone else wrote (the owner's
   * BLACKLIST entry about that wallet) is left as it is and the write refused ('written-by-another').
   */
  ownEntriesOnly?: boolean;
};

async function entriesWrittenByOthers(db: PgPool, key: string, addresses: string[], writer: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'SELECT 1 FROM kv_entries WHERE store_key = $1 AND address = ANY($2::text[]) AND written_by <> $3 LIMIT 1',
    [key, addresses, writer],
  );
  return Boolean(rowCount);
}

/** What a refused batch would have added, for the 409 body (read after the rollback: a moment later, so indicative). */
async function storeFullRefusal(db: PgPool, key: string, addresses: string[]): Promise<KvRefusal> {
  const { rows } = await db.query<{ size_limit: number; entry_count: number; adding: number }>(
    `SELECT size_limit, entry_count, (SELECT count(*)::int FROM unnest($2::text[]) AS a WHERE NOT EXISTS (SELECT 1 FROM kv_entries e WHERE e.store_key = $1 AND e.address = a)) AS adding
     FROM kv_stores WHERE key = $1`,
    [key, addresses],
  );
  const store = rows[0];
  return store
    ? { refused: 'store-full', sizeLimit: store.size_limit, count: store.entry_count, adding: store.adding }
    : { refused: 'missing' };
}

export async function getEntry(db: PgPool, key: string, address: string): Promise<EntryRow | null> {
  return (
    (
      await db.query<EntryRow>('SELECT * FROM kv_entries WHERE store_key = $1 AND address = $2', [
        key,
        address.toLowerCase(),
      ])
    ).rows[0] ?? null
  );
}

/** One page of a store's entries, oldest first (then by address: one batch shares its time), optionally only those whose value equals `value` (indexes kv_entries_store_created_idx, kv_entries_value_idx). */
export async function listEntries(
  db: PgPool,
  key: string,
  q: { page: number; pageSize: number; value?: string },
): Promise<{ rows: EntryRow[]; total: number }> {
  const params = [key, q.value ?? null];
  const where = 'store_key = $1 AND ($2::text IS NULL OR value = $2)';
  const [page, count] = await Promise.all([
    db.query<EntryRow>(`SELECT * FROM kv_entries WHERE ${where} ORDER BY created_at, address LIMIT $3 OFFSET $4`, [
      ...params,
      q.pageSize,
      q.page * q.pageSize,
    ]),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM kv_entries WHERE ${where}`, params),
  ]);
  return { rows: page.rows, total: count.rows[0]!.n };
}

/**
 * Deletes one entry and releases its slot; with `writtenBy` (a wallet deleting its own entry in a
 * PUBLIC store) only an entry that wallet wrote: another writer's entry answers 'written-by-another'.
 * Tables: kv_stores, kv_entries.
 */
export async function deleteEntry(
  db: PgPool,
  key: string,
  address: string,
  { writtenBy }: { writtenBy?: string } = {},
): Promise<boolean | KvRefusal> {
  return inWriteTransaction(db, async (tx) => {
    if (!(await lockStore(tx, key))) return false;
    const { rows } = await tx.query<{ written_by: string }>(
      'SELECT written_by FROM kv_entries WHERE store_key = $1 AND address = $2 FOR UPDATE',
      [key, address.toLowerCase()],
    );
    if (!rows[0]) return false;
    if (writtenBy !== undefined && rows[0].written_by !== writtenBy) return { refused: 'written-by-another' } as const;
    await tx.query('DELETE FROM kv_entries WHERE store_key = $1 AND address = $2', [key, address.toLowerCase()]);
    await tx.query('UPDATE kv_stores SET entry_count = entry_count - 1, updated_at = now() WHERE key = $1', [key]);
    return true;
  });
}
