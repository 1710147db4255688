import Router from '@koa/router';
import { describe } from '../../openapi/describe.js';
import { arr, decimal, int, nullable, num, obj, str } from '../../openapi/schemaHelpers.js';
import type { Context } from 'koa';
import { loadVerifiedRootAt } from '../../reads/roots.js';
import type { ApiDeps } from '../../deps.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { AuthState } from '../../identity/types.js';
import { requireBackOffice } from '../../middleware/auth.js';
import { fields, validate } from '../../validate.js';
import { queryPageWithTotals } from '../../sql/pageWithTotals.js';

const dateField = { type: 'string', minLength: 1, maxLength: 40 } as const;
const historicalQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId', 'startDate', 'endDate'],
  properties: {
    chainId: fields.chainId,
    startDate: dateField,
    endDate: dateField,
    page: { type: 'integer', minimum: 0, maximum: 100_000, default: 0 },
    items: { type: 'integer', minimum: 1, maximum: 10_000, default: 1000 },
  },
} as const;
const campaignParams = {
  type: 'object',
  required: ['campaignId'],
  properties: { campaignId: { type: 'string', pattern: '^(0x[0-9a-fA-F]{64}|[0-9]{1,20})$' } },
} as const;
const recipientParams = { type: 'object', required: ['recipient'], properties: { recipient: fields.address } } as const;

const rootSchema = obj({ root: str, timestamp: num });
const historicalSchema = obj({
  startRoot: nullable(rootSchema),
  endRoot: rootSchema,
  count: int,
  breakdowns: arr(
    obj({
      campaignId: str,
      recipient: str,
      reason: str,
      rewardToken: str,
      startAmount: decimal,
      endAmount: decimal,
      diff: decimal,
    }),
  ),
});

type HistoricalQuery = { chainId: number; startDate: string; endDate: string; page: number; items: number };

/** A date as Unix seconds: digits are seconds, anything else must parse as an ISO 8601 date. */
export function toUnixSeconds(value: string, field: string): number {
  if (/^\d{1,12}$/.test(value)) return Number(value);
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms))
    throw new ValidationError([{ field, message: 'must be an ISO 8601 date or Unix seconds' }]);
  return Math.floor(ms / 1000);
}

/**
 * Reward state between two dates (docs/api-behaviour.md#historical-reward-state), back office only: the last verified
 * root at or before each date, and per (campaign, recipient, reason, token) breakdown the amounts in both roots and
 * their difference (amounts are cumulative, so the diff is what accrued in between). `startRoot` is null when no root
 * precedes the start; a missing end root is a 404. Tables: roots, reward_trees, reward_breakdowns, campaigns.
 */
export function historicalRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  const rootAt = (chainId: number, ts: number) => loadVerifiedRootAt(deps.pg, chainId, ts);

  const diff = (by: 'campaign' | 'recipient') => async (ctx: Context) => {
    const q = ctx.state['query'] as HistoricalQuery;
    const start = toUnixSeconds(q.startDate, 'startDate');
    const end = toUnixSeconds(q.endDate, 'endDate');
    if (end < start) throw new ValidationError([{ field: 'endDate', message: 'must not be before startDate' }]);
    let key =
      by === 'campaign'
        ? (ctx.state['params'] as { campaignId: string }).campaignId.toLowerCase()
        : (ctx.state['params'] as { recipient: string }).recipient.toLowerCase();
    if (by === 'campaign' && !key.startsWith('0x')) {
      const row = (
        await deps.pg.query<{ campaign_id: string }>(
          'SELECT lower(campaign_id) AS campaign_id FROM campaigns WHERE id = $1',
          [key],
        )
      ).rows[0];
      if (!row) throw new NotFoundError(`No campaign ${key}`);
      key = row.campaign_id;
    }
    const [startRoot, endRoot] = await Promise.all([rootAt(q.chainId, start), rootAt(q.chainId, end)]);
    if (!endRoot) throw new NotFoundError(`No verified reward root on chain ${q.chainId} at or before ${q.endDate}`);
    const column = by === 'campaign' ? 'lower(campaign_id)' : 'recipient';
    // The page, and the count of every breakdown (a page past the end still says how many there are).
    const { rows, totals } = await queryPageWithTotals<
      {
        campaign_id: string;
        recipient: string;
        reason: string;
        token: string;
        start_amount: string;
        end_amount: string;
      },
      { total_count: number }
    >(
      deps.pg,
      {
        ctes: `WITH s AS (SELECT lower(campaign_id) AS campaign_id, recipient, reason, token, amount FROM reward_breakdowns WHERE chain_id = $1 AND root = $2 AND ${column} = $4),
        e AS (SELECT lower(campaign_id) AS campaign_id, recipient, reason, token, amount FROM reward_breakdowns WHERE chain_id = $1 AND root = $3 AND ${column} = $4),
        d AS (SELECT COALESCE(e.campaign_id, s.campaign_id) AS campaign_id, COALESCE(e.recipient, s.recipient) AS recipient, COALESCE(e.reason, s.reason) AS reason,
          COALESCE(e.token, s.token) AS token, COALESCE(s.amount, 0) AS start_amount, COALESCE(e.amount, 0) AS end_amount
          FROM e FULL OUTER JOIN s USING (campaign_id, recipient, reason, token))`,
        page: `SELECT campaign_id, recipient, reason, token, start_amount::text, end_amount::text,
          row_number() OVER (ORDER BY d.end_amount - d.start_amount DESC, d.campaign_id, d.recipient, d.reason, d.token) AS page_row
        FROM d ORDER BY page_row LIMIT $5 OFFSET $6`,
        totals: 'SELECT count(*)::int AS total_count FROM d',
      },
      [q.chainId, startRoot?.root ?? '', endRoot.root, key, q.items, q.page * q.items],
    );
    ctx.body = {
      startRoot,
      endRoot,
      count: totals.total_count,
      breakdowns: rows.map((r) => ({
        campaignId: r.campaign_id,
        recipient: r.recipient,
        reason: r.reason,
        rewardToken: r.token,
        startAmount: r.start_amount,
        endAmount: r.end_amount,
        diff: (BigInt(r.end_amount) - BigInt(r.start_amount)).toString(),
      })),
    };
  };
  router.get(
    '/historical/campaign/:campaignId',
    describe({
      summary: 'Reward diffs of a campaign between two dates (back office)',
      response: historicalSchema,
      errors: [404],
    }),
    requireBackOffice,
    validate({ params: campaignParams, query: historicalQuery }),
    diff('campaign'),
  );
  router.get(
    '/historical/recipient/:recipient',
    describe({
      summary: 'Reward diffs of a recipient between two dates (back office)',
      response: historicalSchema,
      errors: [404],
    }),
    requireBackOffice,
    validate({ params: recipientParams, query: historicalQuery }),
    diff('recipient'),
  );
  return router;
}
