import Router from '@koa/router';
import { describe } from '../../openapi/describe.js';
import { any, arr, decimal, int, obj, str } from '../../openapi/schemaHelpers.js';
import { tokenSchema } from '../../openapi/records.js';
import type { Context } from 'koa';
import { loadVerifiedRootAt } from '../../reads/roots.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { NotFoundError } from '../../errors.js';
import type { AuthState } from '../../identity/types.js';
import { requireBackOffice } from '../../middleware/auth.js';
import { fields, validate } from '../../validate.js';
import type { TokenDbRow } from '../tokens/repo.js';
import { withPrices } from '../tokens/handlers.js';
import { queryPageWithTotals } from '../../sql/pageWithTotals.js';

const paging = {
  page: { type: 'integer', minimum: 0, maximum: 100_000, default: 0 },
  items: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
} as const;
const leavesQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId', 'tokenAddress'],
  properties: {
    chainId: fields.chainId,
    tokenAddress: fields.address,
    recipient: fields.address,
    sort: { type: 'string', enum: ['amount', 'claimed', 'pending', 'recipient'], default: 'amount' },
    order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
    ...paging,
  },
} as const;
const breakdownsQuery = {
  ...leavesQuery,
  properties: { ...leavesQuery.properties, campaignId: { type: 'string', pattern: '^0x[0-9a-fA-F]{64}$' } },
} as const;
const tokensQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId'],
  properties: { chainId: fields.chainId },
} as const;

const summarySchema = obj({
  total: int,
  totalAmount: decimal,
  totalClaimed: decimal,
  positiveAmount: decimal,
  negativeAmount: decimal,
});

type LeavesQuery = {
  chainId: number;
  tokenAddress: string;
  recipient?: string;
  campaignId?: string;
  sort: 'amount' | 'claimed' | 'pending' | 'recipient';
  order: 'asc' | 'desc';
  page: number;
  items: number;
};

/**
 * Claimed per (recipient, token) on a chain, capped at the leaf amount. Breakdowns get a pro-rata
 * share of it (largest remainder left to the first rows, as GET /users/{address}/rewards does).
 */
const LEAVES_SQL = `
  WITH raw AS (
    SELECT w.recipient, w.token, w.amount, COALESCE((SELECT sum(c.amount) FROM claims c WHERE c.chain_id = w.chain_id AND c.recipient = w.recipient AND c.token = w.token), 0) AS paid
    FROM rewards w WHERE w.chain_id = $1 AND w.root = $2 AND w.token = $3 AND ($4::text IS NULL OR w.recipient = $4)),
  leaves AS (SELECT recipient, token, amount, LEAST(amount, paid) AS claimed, GREATEST(paid - amount, 0) AS overpaid FROM raw)`;

/**
 * Reward-tree leaves of the latest verified root (docs/api-behaviour.md#reward-leaves; a newer root still being
 * verified is not shown), back office only: per recipient of
 * a token, the cumulative amount and what was claimed (capped at the amount), with a summary
 * (`positiveAmount` sums what is still to claim, `negativeAmount` minus what was paid beyond leaves); per-campaign leaf
 * breakdowns with their opportunity; and the tokens that have leaves. Paged and sortable.
 * Tables: roots, reward_trees, rewards, reward_breakdowns, claims, campaigns, opportunities, tokens.
 */
export function diffsRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  const liveVerifiedRoot = async (chainId: number) => {
    // The latest one, whatever the clock says (a devnet's chain time may run ahead of ours).
    const root = await loadVerifiedRootAt(deps.pg, chainId, Number.MAX_SAFE_INTEGER);
    if (!root) throw new NotFoundError(`No verified reward root on chain ${chainId}`);
    return root;
  };
  /** Sort on the numeric columns of `table` (the selected ones are text), the recipient breaking ties. */
  const orderBy = (q: LeavesQuery, table: string) =>
    `${q.sort === 'pending' ? `(${table}.amount - ${table}.claimed)` : `${table}.${q.sort}`} ${q.order === 'asc' ? 'ASC' : 'DESC'}, ${table}.recipient`;

  router.get(
    '/diffs/leaves',
    describe({
      summary: 'Leaves of a token in the latest verified root, with claimed amounts (back office)',
      response: obj({
        root: str,
        count: int,
        leaves: arr(
          obj({ distributionChainId: int, tokenAddress: str, recipient: str, amount: decimal, claimed: decimal }),
        ),
        summary: summarySchema,
      }),
      errors: [404],
    }),
    requireBackOffice,
    validate({ query: leavesQuery }),
    async (ctx: Context) => {
      const q = ctx.state['query'] as LeavesQuery;
      const live = await liveVerifiedRoot(q.chainId);
      const args = [q.chainId, live.root, q.tokenAddress.toLowerCase(), q.recipient?.toLowerCase() ?? null];
      const { rows, totals: s } = await queryPageWithTotals<
        { recipient: string; token: string; amount: string; claimed: string },
        {
          total_count: number;
          total_amount: string;
          total_claimed: string;
          total_positive: string;
          total_negative: string;
        }
      >(
        deps.pg,
        {
          ctes: LEAVES_SQL,
          page: `SELECT recipient, token, amount::text, claimed::text, row_number() OVER (ORDER BY ${orderBy(q, 'leaves')}) AS page_row FROM leaves ORDER BY page_row LIMIT $5 OFFSET $6`,
          totals: `SELECT count(*)::int AS total_count, COALESCE(sum(amount), 0)::text AS total_amount, COALESCE(sum(claimed), 0)::text AS total_claimed,
        COALESCE(sum(amount - claimed), 0)::text AS total_positive, (-COALESCE(sum(overpaid), 0))::text AS total_negative FROM leaves`,
        },
        [...args, q.items, q.page * q.items],
      );
      ctx.body = {
        root: live.root,
        count: s.total_count,
        leaves: rows.map((r) => ({
          distributionChainId: q.chainId,
          tokenAddress: r.token,
          recipient: r.recipient,
          amount: r.amount,
          claimed: r.claimed,
        })),
        summary: {
          total: s.total_count,
          totalAmount: s.total_amount,
          totalClaimed: s.total_claimed,
          positiveAmount: s.total_positive,
          negativeAmount: s.total_negative,
        },
      };
    },
  );

  router.get(
    '/diffs/leaf-breakdowns',
    describe({
      summary: 'Per-campaign leaf breakdowns with pro-rata claims (back office)',
      response: obj({ root: str, count: int, breakdowns: arr(any), summary: summarySchema, opportunities: any }),
      errors: [404],
    }),
    requireBackOffice,
    validate({ query: breakdownsQuery }),
    async (ctx: Context) => {
      const q = ctx.state['query'] as LeavesQuery;
      const live = await liveVerifiedRoot(q.chainId);
      const args = [
        q.chainId,
        live.root,
        q.tokenAddress.toLowerCase(),
        q.recipient?.toLowerCase() ?? null,
        q.campaignId?.toLowerCase() ?? null,
      ];
      const partsSql = `${LEAVES_SQL},
       parts AS (
         SELECT b.recipient, lower(b.campaign_id) AS campaign_id, b.reason, b.amount,
           CASE WHEN l.amount = 0 THEN 0 ELSE floor(b.amount * l.claimed / l.amount) END AS claimed
         FROM reward_breakdowns b JOIN leaves l ON l.recipient = b.recipient
         WHERE b.chain_id = $1 AND b.root = $2 AND b.token = $3 AND ($5::text IS NULL OR lower(b.campaign_id) = $5))`;
      // The page, and the count and summary of every matching breakdown (not of the page).
      const { rows, totals: s } = await queryPageWithTotals<
        {
          recipient: string;
          campaign_id: string;
          reason: string;
          amount: string;
          claimed: string;
          opportunity_id: string | null;
          opportunity_name: string | null;
        },
        { total_count: number; total_amount: string; total_claimed: string }
      >(
        deps.pg,
        {
          ctes: partsSql,
          page: `SELECT p.recipient, p.campaign_id, p.reason, p.amount::text, p.claimed::text, c.opportunity_id, o.identifier AS opportunity_name,
          row_number() OVER (ORDER BY ${orderBy(q, 'p')}, p.campaign_id, p.reason) AS page_row
        FROM parts p LEFT JOIN campaigns c ON c.distribution_chain_id = $1 AND lower(c.campaign_id) = p.campaign_id LEFT JOIN opportunities o ON o.id = c.opportunity_id
        ORDER BY page_row LIMIT $6 OFFSET $7`,
          totals:
            'SELECT count(*)::int AS total_count, COALESCE(sum(amount), 0)::text AS total_amount, COALESCE(sum(claimed), 0)::text AS total_claimed FROM parts',
        },
        [...args, q.items, q.page * q.items],
      );
      const opportunities: Record<string, { name: string | null; path: string }> = {};
      for (const r of rows)
        if (r.opportunity_id)
          opportunities[r.opportunity_id] = { name: r.opportunity_name, path: `/v4/opportunities/${r.opportunity_id}` };
      ctx.body = {
        root: live.root,
        count: s.total_count,
        breakdowns: rows.map((r) => ({
          tokenAddress: q.tokenAddress.toLowerCase(),
          recipient: r.recipient,
          campaignId: r.campaign_id,
          reason: r.reason,
          amount: r.amount,
          claimed: r.claimed,
          subCampaignId: null,
          lastProcessedTimestamp: live.timestamp,
          distributionChainId: q.chainId,
          opportunityId: r.opportunity_id,
        })),
        summary: {
          total: s.total_count,
          totalAmount: s.total_amount,
          totalClaimed: s.total_claimed,
          positiveAmount: (BigInt(s.total_amount) - BigInt(s.total_claimed)).toString(),
          negativeAmount: '0',
        },
        opportunities,
      };
    },
  );

  router.get(
    '/diffs/leaf-tokens',
    describe({
      summary: 'Tokens with leaves in the latest verified root (back office)',
      response: arr(tokenSchema),
      errors: [404],
    }),
    requireBackOffice,
    validate({ query: tokensQuery }),
    async (ctx: Context) => {
      const { chainId } = ctx.state['query'] as { chainId: number };
      const live = await liveVerifiedRoot(chainId);
      const { rows } = await deps.pg.query<TokenDbRow>(
        `SELECT t.id, t.chain_id, t.address, t.name, t.symbol, t.decimals, t.icon, t.verified, t.is_native, t.is_test, t.type, t.display_symbol, t.underlying_token_id
       FROM tokens t WHERE t.chain_id = $1 AND t.address IN (SELECT DISTINCT token FROM rewards WHERE chain_id = $1 AND root = $2) ORDER BY lower(t.symbol), t.address`,
        [chainId, live.root],
      );
      ctx.body = await withPrices(deps, rows, new Date(nowSeconds(deps) * 1000));
    },
  );
  return router;
}
