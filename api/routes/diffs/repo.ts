import type { Queryable } from '../../../internal/pg.js';
import type { TokenDbRow } from '../../reads/tokens/repo.js';

/** The sequence number of the stored tree of `root` on `chainId` (reward_trees.seq), or null when it has none. */
export async function treeSeqOf(pg: Queryable, chainId: number, root: string): Promise<string | null> {
  const { rows } = await pg.query<{ seq: string | null }>(
    'SELECT seq::text AS seq FROM reward_trees WHERE chain_id = $1 AND root = $2',
    [chainId, root],
  );
  return rows[0]?.seq ?? null;
}

/**
 * The tokens of a chain with leaves in the tree `seq`, by symbol: those whose totals row of the tree
 * (reward_token_totals, the latest at or before `seq`) counts recipients, instead of a pass over every leaf.
 */
export async function leafTokens(pg: Queryable, chainId: number, seq: string): Promise<TokenDbRow[]> {
  const { rows } = await pg.query<TokenDbRow>(
    `SELECT t.id, t.chain_id, t.address, t.name, t.symbol, t.decimals, t.icon, t.verified, t.is_native, t.is_test, t.type, t.display_symbol, t.underlying_token_id
       FROM tokens t WHERE t.chain_id = $1 AND t.address IN (
         SELECT x.token FROM (SELECT DISTINCT ON (token) token, recipients FROM reward_token_totals
           WHERE chain_id = $1 AND seq <= $2 ORDER BY token, seq DESC) x WHERE x.recipients > 0)
       ORDER BY lower(t.symbol), t.address`,
    [chainId, seq],
  );
  return rows;
}
