import type { Queryable } from '../../../internal/pg.js';
import { likePrefix, TOKEN_COLUMNS, type TokenDbRow } from '../../reads/tokens/repo.js';

/** A whitelisted reward token: its `tokens` row and current minimum amount per hour (base units). */
export type RewardTokenDbRow = TokenDbRow & { minimum_amount_per_hour: string };

/** Whitelisted tokens served at most per request (the whitelist is governed, and small in practice). */
export const MAX_REWARD_TOKENS = 5000;

export type ListRewardTokensArgs = {
  chainId?: number;
  /** Anywhere in the symbol or name, or an address prefix (as GET /v4/tokens `search`). */
  search?: string;
  types?: readonly string[];
  verified?: boolean;
};

/**
 * The tokens each chain's DistributionCreator accepts as rewards: the latest
 * RewardTokenMinimumAmountUpdated log of each token with a non-zero amount (0 removes a token),
 * joined to its stored metadata; ordered by chain, symbol and id. Tables reward_token_min_amounts, tokens.
 */
export async function listRewardTokenRows(db: Queryable, args: ListRewardTokensArgs): Promise<RewardTokenDbRow[]> {
  const values: unknown[] = [];
  const arg = (v: unknown) => `$${values.push(v)}`;
  const where = ['l.amount > 0'];
  const chainFilter = args.chainId === undefined ? '' : `WHERE chain_id = ${arg(args.chainId)}`;
  if (args.search) {
    const anywhere = arg(`%${likePrefix(args.search)}`);
    where.push(
      `(lower(t.symbol) LIKE ${anywhere} OR lower(t.name) LIKE ${anywhere} OR t.address LIKE ${arg(likePrefix(args.search))})`,
    );
  }
  if (args.types?.length) where.push(`t.type = ANY(${arg(args.types)}::text[])`);
  if (args.verified !== undefined) where.push(`t.verified = ${arg(args.verified)}`);
  const { rows } = await db.query<RewardTokenDbRow>(
    `WITH latest AS (
       SELECT DISTINCT ON (chain_id, token) chain_id, token, amount FROM reward_token_min_amounts ${chainFilter}
       ORDER BY chain_id, token, block_number DESC, log_index DESC)
     SELECT t.id, t.chain_id, t.address, t.name, t.symbol, t.decimals, t.icon, t.verified, t.is_native, t.is_test, t.type,
       t.display_symbol, t.underlying_token_id, l.amount::text AS minimum_amount_per_hour
     FROM latest l JOIN tokens t ON t.chain_id = l.chain_id AND t.address = l.token
     WHERE ${where.join(' AND ')}
     ORDER BY t.chain_id, lower(t.symbol), t.id LIMIT ${MAX_REWARD_TOKENS}`,
    values,
  );
  return rows;
}

/** Stored tokens of `chainId` among `addresses` (lower-case), keyed by address. Table tokens. */
export async function tokenRowsByAddress(
  db: Queryable,
  chainId: number,
  addresses: readonly string[],
): Promise<Map<string, TokenDbRow>> {
  if (!addresses.length) return new Map();
  const { rows } = await db.query<TokenDbRow>(
    `SELECT ${TOKEN_COLUMNS} FROM tokens WHERE chain_id = $1 AND address = ANY($2::text[])`,
    [chainId, addresses],
  );
  return new Map(rows.map((r) => [r.address, r]));
}
