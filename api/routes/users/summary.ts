import type { ApiDeps } from '../../deps.js';
import { claimedTotals } from '../../reads/claims.js';
import { loadServedRoot } from '../../reads/servedRoot.js';
import type { Handler } from '../../validate.js';
import { resolveChainIds } from '../../reads/users/params.js';
import type { userParams, userSummaryQuery } from '../../reads/users/schema.js';

type TokenRow = { token: string; amount: string; symbol: string | null; decimals: number | null; price: number | null };

const usd = (units: bigint, decimals: number | null, price: number | null) =>
  price === null ? null : (Number(units) / 10 ** (decimals ?? 18)) * price;

/**
 * GET /v4/users/{address}/rewards/summary: per chain and token, what the wallet earned in the live
 * root (the same rule and leaves as /users/{address}/rewards: a leaf counts whole, it is what the
 * proof claims), claimed (claimedTotals) and may still claim, in units and in USD at the current
 * price (null without one); no proofs, one query per chain. While a chain's live root has no stored
 * tree, a 503 (loadServedRoot). Tables roots, reward_trees, rewards (view), claims, tokens, token_prices.
 */
export function userSummaryHandler(
  deps: ApiDeps,
): Handler<{ params: typeof userParams; query: typeof userSummaryQuery }> {
  return async (ctx) => {
    const address = ctx.state.params.address.toLowerCase();
    const chainIds = resolveChainIds(deps, 'chainId', ctx.state.query.chainId);
    ctx.body = await Promise.all(
      chainIds.map(async (chainId) => {
        const live = await loadServedRoot(deps.pg, chainId);
        if (!live) return { chainId, root: null, tokens: [] };
        const [{ rows }, claims] = await Promise.all([
          deps.pg.query<TokenRow>(
            `SELECT r.token, r.amount::text AS amount, tk.symbol, tk.decimals, p.price
             FROM rewards r LEFT JOIN tokens tk ON tk.chain_id = r.chain_id AND lower(tk.address) = r.token
             LEFT JOIN token_prices p ON p.token_id = tk.id
             WHERE r.chain_id = $1 AND r.root = $2 AND r.recipient = $3 ORDER BY r.token`,
            [chainId, live.root, address],
          ),
          claimedTotals(deps.pg, { chainId, recipient: address }),
        ]);
        const claimed = new Map(claims.map((c) => [c.token, BigInt(c.claimed)]));
        const tokens = rows.map((r) => {
          const earned = BigInt(r.amount);
          const got = claimed.get(r.token) ?? 0n;
          const claimable = earned > got ? earned - got : 0n;
          return {
            address: r.token,
            symbol: r.symbol,
            decimals: r.decimals,
            price: r.price,
            earned: earned.toString(),
            claimed: got.toString(),
            claimable: claimable.toString(),
            earnedUsd: usd(earned, r.decimals, r.price),
            claimedUsd: usd(got, r.decimals, r.price),
            claimableUsd: usd(claimable, r.decimals, r.price),
          };
        });
        return { chainId, root: live.root, tokens };
      }),
    );
  };
}
