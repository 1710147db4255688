import { withTransaction as inWriteTransaction, type PgPool } from '../../../internal/pg.js';

type Queryable = Pick<PgPool, 'query'>;

export type CreditOperationRow = {
  id: string;
  creator_id: string;
  type: 'ADD' | 'SUBTRACT';
  amount: string;
  label: string;
  balance_after: string;
  idempotency_key: string | null;
  created_at: Date;
};
export type CreditAccountRow = { creator_id: string; balance: string; max_negative_balance: string; updated_at: Date };
export type CreatorRow = { id: string; name: string; icon: string | null; rebate_fee: number };

export type MoveCredits = {
  creatorId: string;
  type: 'ADD' | 'SUBTRACT';
  amount: string;
  label: string;
  idempotencyKey?: string;
};
export type MoveResult =
  | { ok: true; balance: string; replayed: boolean }
  | {
      ok: false;
      reason: 'no-creator' | 'no-account' | 'insufficient' | 'key-reused';
      balance?: string;
      floor?: string;
    };

/** PostgreSQL numeric text → the exact decimal string served (`100.500000` → `100.5`, `-30.000000` → `-30`). */
export function creditText(value: string | null | undefined): string {
  if (!value) return '0';
  const text = value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
  return text === '-0' ? '0' : text;
}

/** The creator and its account (null when either is absent). Tables: creators, credit_accounts. */
export async function loadAccount(
  db: Queryable,
  creatorId: string,
): Promise<{ creator: CreatorRow | null; account: CreditAccountRow | null }> {
  const { rows } = await db.query<
    CreatorRow & { balance: string | null; max_negative_balance: string | null; updated_at: Date | null }
  >(
    `SELECT c.id, c.name, c.icon, c.rebate_fee, a.balance::text AS balance, a.max_negative_balance::text AS max_negative_balance, a.updated_at
     FROM creators c LEFT JOIN credit_accounts a ON a.creator_id = c.id WHERE c.id = $1`,
    [creatorId],
  );
  const r = rows[0];
  if (!r) return { creator: null, account: null };
  return {
    creator: { id: r.id, name: r.name, icon: r.icon, rebate_fee: r.rebate_fee },
    account:
      r.balance === null
        ? null
        : {
            creator_id: r.id,
            balance: r.balance,
            max_negative_balance: r.max_negative_balance!,
            updated_at: r.updated_at!,
          },
  };
}

export async function listOperations(
  db: Queryable,
  creatorId: string,
  page: number,
  items: number,
): Promise<CreditOperationRow[]> {
  return (
    await db.query<CreditOperationRow>(
      `SELECT id, creator_id, type, amount::text AS amount, label, balance_after::text AS balance_after, idempotency_key, created_at
     FROM credit_operations WHERE creator_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
      [creatorId, items, page * items],
    )
  ).rows;
}

/**
 * Moves a creator's balance by one recorded operation, atomically: the account row is locked, an
 * idempotency key already used with the same operation returns the first result (used with another
 * one is refused), a subtraction that would pass the allowed negative balance is refused, and the
 * balance and its operation are written together. Adding creates the account; subtracting needs it.
 * Tables: creators, credit_accounts, credit_operations.
 */
export async function moveCredits(db: PgPool, m: MoveCredits): Promise<MoveResult> {
  return inWriteTransaction<MoveResult>(db, async (tx) => {
    if (!(await tx.query('SELECT 1 FROM creators WHERE id = $1', [m.creatorId])).rowCount)
      return { ok: false, reason: 'no-creator' };
    if (m.type === 'ADD')
      await tx.query('INSERT INTO credit_accounts (creator_id) VALUES ($1) ON CONFLICT DO NOTHING', [m.creatorId]);
    const account = (
      await tx.query<CreditAccountRow>(
        'SELECT creator_id, balance::text AS balance, max_negative_balance::text AS max_negative_balance FROM credit_accounts WHERE creator_id = $1 FOR UPDATE',
        [m.creatorId],
      )
    ).rows[0];
    if (!account) return { ok: false, reason: 'no-account' };
    if (m.idempotencyKey) {
      const previous = (
        await tx.query<CreditOperationRow>(
          'SELECT type, amount::text AS amount, label, balance_after::text AS balance_after FROM credit_operations WHERE creator_id = $1 AND idempotency_key = $2',
          [m.creatorId, m.idempotencyKey],
        )
      ).rows[0];
      if (previous) {
        const same =
          previous.type === m.type &&
          creditText(previous.amount) === creditText(m.amount) &&
          previous.label === m.label;
        return same
          ? { ok: true, balance: previous.balance_after, replayed: true }
          : { ok: false, reason: 'key-reused' };
      }
    }
    const {
      rows: [next],
    } = await tx.query<{ balance: string; allowed: boolean; floor: string }>(
      `SELECT ($1::numeric + $2::numeric)::text AS balance, ($1::numeric + $2::numeric) >= -$3::numeric AS allowed, (-$3::numeric)::text AS floor`,
      [account.balance, m.type === 'ADD' ? m.amount : `-${m.amount}`, account.max_negative_balance],
    );
    if (!next!.allowed) return { ok: false, reason: 'insufficient', balance: account.balance, floor: next!.floor };
    await tx.query('UPDATE credit_accounts SET balance = $2, updated_at = now() WHERE creator_id = $1', [
      m.creatorId,
      next!.balance,
    ]);
    await tx.query(
      'INSERT INTO credit_operations (creator_id, type, amount, label, balance_after, idempotency_key) VALUES ($1, $2, $3, $4, $5, $6)',
      [m.creatorId, m.type, m.amount, m.label, next!.balance, m.idempotencyKey ?? null],
    );
    return { ok: true, balance: next!.balance, replayed: false };
  });
}

/** Sets how far below zero a creator's balance may go (creates the account). Tables: credit_accounts. */
export async function setMaxNegativeBalance(
  db: PgPool,
  creatorId: string,
  maxNegative: string,
): Promise<CreditAccountRow | 'no-creator' | 'below'> {
  return inWriteTransaction(db, async (tx) => {
    if (!(await tx.query('SELECT 1 FROM creators WHERE id = $1', [creatorId])).rowCount) return 'no-creator';
    await tx.query('INSERT INTO credit_accounts (creator_id) VALUES ($1) ON CONFLICT DO NOTHING', [creatorId]);
    const { rows } = await tx.query<CreditAccountRow>(
      `UPDATE credit_accounts SET max_negative_balance = $2, updated_at = now() WHERE creator_id = $1 AND balance >= -$2::numeric
       RETURNING creator_id, balance::text AS balance, max_negative_balance::text AS max_negative_balance, updated_at`,
      [creatorId, maxNegative],
    );
    return rows[0] ?? 'below';
  });
}
