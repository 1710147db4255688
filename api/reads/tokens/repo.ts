import type { PgClient, PgPool } from '../../../internal/pg.js';
import type { ListTokensQuery } from './schema.js';

type Queryable = Pick<PgClient | PgPool, 'query'>;

/** A `tokens` row as the API reads it. */
export type TokenDbRow = {
  id: string;
  chain_id: number;
  address: string;
  name: string | null;
  symbol: string;
  decimals: number;
  icon: string;
  verified: boolean;
  is_native: boolean;
  is_test: boolean;
  type: 'TOKEN' | 'PRETGE' | 'POINT';
  display_symbol: string | null;
  underlying_token_id: string | null;
};

export type SqlQuery = { text: string; values: unknown[] };

/** LIKE pattern of a literal prefix (escapes `%`, `_` and `\`). */
export const likePrefix = (s: string): string => `${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Pure: validated token list params → one parameterized SELECT on `tokens` (joined to
 * `token_prices` only for `missingPrice`). A price counts as present when it is fresh at `now`
 * (not older than `maxAgeSeconds`), the same rule toServedPrice applies. Test tokens are left out
 * unless `test=true` or ids are resolved explicitly. Ordered verified first, then symbol, chain, id. With `count`,
 * the number of matching rows instead.
 */
export function buildTokenListSql(q: ListTokensQuery, now: Date, maxAgeSeconds: number, count = false): SqlQuery {
  const values: unknown[] = [];
  const arg = (v: unknown) => `$${values.push(v)}`;
  const where: string[] = [];
  if (q.id) where.push(`t.id = ANY(${arg(q.id)}::text[])`);
  if (q.symbol) where.push(`lower(t.symbol) = ${arg(q.symbol.toLowerCase())}`);
  if (q.displaySymbol)
    where.push(`lower(coalesce(t.display_symbol, t.symbol)) = ${arg(q.displaySymbol.toLowerCase())}`);
  if (q.chainId !== undefined) where.push(`t.chain_id = ${arg(q.chainId)}`);
  if (q.isNative !== undefined) where.push(`t.is_native = ${arg(q.isNative)}`);
  if (q.address) where.push(`t.address = ${arg(q.address.toLowerCase())}`);
  if (q.name) where.push(`lower(t.name) LIKE ${arg(`%${likePrefix(q.name)}`)}`);
  if (q.search) {
    // Anywhere in the symbol or name (USD finds crvUSDx and "USD Coin"); an address by its prefix.
    const anywhere = arg(`%${likePrefix(q.search)}`);
    const prefix = arg(likePrefix(q.search));
    where.push(`(lower(t.symbol) LIKE ${anywhere} OR lower(t.name) LIKE ${anywhere} OR t.address LIKE ${prefix})`);
  }
  if (q.verified !== undefined) where.push(`t.verified = ${arg(q.verified)}`);
  if (!q.test && !q.id) where.push('NOT t.is_test');
  if (q.missingIcons !== undefined) where.push(q.missingIcons ? "t.icon = ''" : "t.icon <> ''");
  if (q.missingPrice !== undefined) {
    const fresh = `EXISTS (SELECT 1 FROM token_prices p WHERE p.token_id = t.id AND p.updated_at >= ${arg(new Date(now.getTime() - maxAgeSeconds * 1000))}::timestamptz)`;
    where.push(q.missingPrice ? `NOT ${fresh}` : fresh);
  }
  const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
  // GET /v4/tokens/count: the same filters, every page.
  if (count) return { text: `SELECT count(*)::int AS count FROM tokens t ${filter}`, values };
  const text = `SELECT t.id, t.chain_id, t.address, t.name, t.symbol, t.decimals, t.icon, t.verified, t.is_native, t.is_test, t.type,
      t.display_symbol, t.underlying_token_id
    FROM tokens t ${filter}
    ORDER BY t.verified DESC, lower(t.symbol), t.chain_id, t.id LIMIT ${arg(q.items)} OFFSET ${arg(q.page * q.items)}`;
  return { text, values };
}

/** How many tokens match the list params (`page` and `items` ignored). */
export async function countTokenRows(
  db: Queryable,
  q: ListTokensQuery,
  now: Date,
  maxAgeSeconds: number,
): Promise<number> {
  const { text, values } = buildTokenListSql(q, now, maxAgeSeconds, true);
  return (await db.query<{ count: number }>(text, values)).rows[0]!.count;
}

/** Token rows matching the list params (see buildTokenListSql). */
export async function listTokenRows(
  db: Queryable,
  q: ListTokensQuery,
  now: Date,
  maxAgeSeconds: number,
): Promise<TokenDbRow[]> {
  const { text, values } = buildTokenListSql(q, now, maxAgeSeconds);
  return (await db.query<TokenDbRow>(text, values)).rows;
}

/** The `tokens` columns of a TokenDbRow. */
export const TOKEN_COLUMNS =
  'id, chain_id, address, name, symbol, decimals, icon, verified, is_native, is_test, type, display_symbol, underlying_token_id';

/** One token row by id, or null. */
export async function getTokenRow(db: Queryable, id: string): Promise<TokenDbRow | null> {
  const { rows } = await db.query<TokenDbRow>(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE id = $1`, [id]);
  return rows[0] ?? null;
}
