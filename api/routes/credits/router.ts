import Router from '@koa/router';
import { describe } from '../../openapi/describe.js';
import { arr, nullable, num, obj, str } from '../../openapi/schemaHelpers.js';
import type { Context } from 'koa';
import type { ApiDeps } from '../../deps.js';
import { AppError, NotFoundError, ValidationError } from '../../errors.js';
import type { AuthState } from '../../identity/types.js';
import { requireBackOffice } from '../../middleware/auth.js';
import { acceptsHeaders } from '../../middleware/corsRoutes.js';
import { validate } from '../../validate.js';
import {
  creditText,
  listOperations,
  loadAccount,
  moveCredits,
  setMaxNegativeBalance,
  type CreditOperationRow,
} from './repo.js';

/**
 * What campaigns cost in credits (our published price list; docs/api-behaviour.md#credits: the fields are named, not
 * the values): a base per week, a cost per rewarded recipient above the free tier, and weekly rates
 * per storing id and per tree depth; top-ups start at `minTopUpAmount`.
 */
export const CREDIT_PRICING = {
  baseCostPerWeek: 50,
  costPerRecipient: 0.01,
  freeTierRecipientThreshold: 1000,
  perStoringIdWeeklyRate: 5,
  perDepthWeeklyRate: 10,
  minTopUpAmount: 100,
} as const;

const creatorId = { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,63}$' } as const;
/** Up to 1e12 with at most 6 decimal places: a JSON number, or a decimal string (exact past a double's 15–17 digits). */
const amount = {
  type: ['number', 'string'],
  exclusiveMinimum: 0,
  maximum: 1e12,
  pattern: '^[0-9]{1,13}(\\.[0-9]{1,6})?$',
} as const;
/** Credit amounts are served as exact decimal strings (numeric(30, 6) in PostgreSQL; a JSON number would round past 15–17 digits). */
const credit = { type: 'string', pattern: '^-?[0-9]+(\\.[0-9]{1,6})?$', description: 'Exact decimal string' } as const;
const moveBody = {
  type: 'object',
  additionalProperties: false,
  required: ['creatorId', 'amount', 'label'],
  properties: {
    creatorId,
    amount,
    label: { type: 'string', minLength: 1, maxLength: 256 },
    idempotencyKey: { type: 'string', minLength: 1, maxLength: 128 },
  },
} as const;
const creatorParams = { type: 'object', required: ['creatorId'], properties: { creatorId } } as const;
const pageQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: { type: 'integer', minimum: 0, maximum: 100_000, default: 0 },
    items: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  },
} as const;
const none = { type: 'object', additionalProperties: false, properties: {} } as const;
const allowanceBody = {
  type: 'object',
  additionalProperties: false,
  required: ['maxNegativeBalance'],
  properties: {
    maxNegativeBalance: {
      type: ['number', 'string'],
      minimum: 0,
      maximum: 1e12,
      pattern: '^[0-9]{1,13}(\\.[0-9]{1,6})?$',
    },
  },
} as const;

const balanceSchema = obj({ creatorId: str, amount: credit });
const operationSchema = obj({
  id: str,
  creatorId: str,
  type: { enum: ['ADD', 'SUBTRACT'] },
  amount: credit,
  label: str,
  balanceAfter: credit,
  timestamp: str,
});
const accountSchema = obj({
  creatorId: str,
  amount: credit,
  maxNegativeBalance: credit,
  Creator: obj({ id: str, icon: nullable(str), name: str, rebateFee: num, hubspotCompanyId: nullable(str) }),
  CreditOperations: arr(operationSchema),
});

type MoveBody = { creatorId: string; amount: number | string; label: string; idempotencyKey?: string };

const serializeOperation = (o: CreditOperationRow) => ({
  id: o.id,
  creatorId: o.creator_id,
  type: o.type,
  amount: creditText(o.amount),
  label: o.label,
  balanceAfter: creditText(o.balance_after),
  timestamp: o.created_at.toISOString(),
});

/**
 * An amount as an exact decimal of at most 6 places (`1e-7` or `0.1234567` is a 400 naming the
 * field); a string is taken as written, so amounts past a double's precision stay exact.
 */
function decimalOf(value: number | string, field: string, { positive = true } = {}): string {
  const text = String(value);
  if (!/^\d+(\.\d{1,6})?$/.test(text))
    throw new ValidationError([{ field, message: 'must be a decimal with at most 6 decimal places' }]);
  const [whole = '', fraction = ''] = text.split('.');
  const wholeDigits = whole.replace(/^0+(?=\d)/, '');
  const over =
    wholeDigits.length > 13 ||
    (wholeDigits.length === 13 && (wholeDigits !== '1000000000000' || /[1-9]/.test(fraction)));
  if (over) throw new ValidationError([{ field, message: 'must be at most 1000000000000' }]);
  if (positive && !/[1-9]/.test(text)) throw new ValidationError([{ field, message: 'must be greater than 0' }]);
  return text;
}

/**
 * Credits (docs/api-behaviour.md#credits): public pricing, balance with recent operations, and paged operations
 * per creator; back-office add, subtract and the negative-balance allowance. Moves are atomic,
 * never take a balance below -maxNegativeBalance, and are idempotent with a client key (header
 * `Idempotency-Key` or body `idempotencyKey`): a retry answers the first result, the same key for
 * another operation is 409. Tables: creators, credit_accounts, credit_operations.
 */
export function creditsRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  const move = (type: 'ADD' | 'SUBTRACT') =>
    acceptsHeaders(
      async (ctx: Context) => {
        const body = ctx.state['body'] as MoveBody;
        const idempotencyKey = body.idempotencyKey ?? (ctx.get('idempotency-key') || undefined);
        if (idempotencyKey && idempotencyKey.length > 128)
          throw new ValidationError([{ field: 'Idempotency-Key', message: 'must be at most 128 characters' }]);
        const result = await moveCredits(deps.pg, {
          creatorId: body.creatorId,
          type,
          amount: decimalOf(body.amount, 'amount'),
          label: body.label,
          ...(idempotencyKey ? { idempotencyKey } : {}),
        });
        if (!result.ok) {
          switch (result.reason) {
            case 'no-creator':
              throw new NotFoundError(`No creator ${body.creatorId}`);
            case 'no-account':
              throw new NotFoundError(`Creator ${body.creatorId} has no credit record yet`);
            case 'key-reused':
              throw new AppError(
                409,
                'CONFLICT',
                `Idempotency key ${idempotencyKey} was already used for a different operation`,
              );
            case 'insufficient':
              throw new AppError(
                409,
                'INSUFFICIENT_CREDITS',
                `Balance ${creditText(result.balance)} cannot go below ${creditText(result.floor)}`,
                { extensions: { balance: creditText(result.balance), floor: creditText(result.floor) } },
              );
          }
        }
        if (result.replayed) ctx.set('idempotent-replayed', 'true');
        ctx.body = { creatorId: body.creatorId, amount: creditText(result.balance) };
      },
      ['idempotency-key'],
    );

  router.get(
    '/credits/pricing',
    describe({
      summary: 'Credit price list',
      response: obj(Object.fromEntries(Object.keys(CREDIT_PRICING).map((k) => [k, num]))),
    }),
    validate({ query: none }),
    (ctx) => void (ctx.body = CREDIT_PRICING),
  );
  router.post(
    '/credits',
    describe({
      summary: 'Add credits to a creator (back office; idempotent with Idempotency-Key)',
      response: balanceSchema,
      errors: [404, 409],
    }),
    requireBackOffice,
    validate({ body: moveBody }),
    move('ADD'),
  );
  router.post(
    '/credits/subtract',
    describe({
      summary: 'Subtract credits, never below the allowed negative balance (back office)',
      response: balanceSchema,
      errors: [404, 409],
    }),
    requireBackOffice,
    validate({ body: moveBody }),
    move('SUBTRACT'),
  );
  router.put(
    '/credits/:creatorId/allowance',
    describe({
      summary: 'Set how far below zero a creator balance may go (back office)',
      response: obj({ creatorId: str, amount: credit, maxNegativeBalance: credit }),
      errors: [404, 409],
    }),
    requireBackOffice,
    validate({ params: creatorParams, body: allowanceBody }),
    async (ctx) => {
      const { creatorId: id } = ctx.state['params'] as { creatorId: string };
      const result = await setMaxNegativeBalance(
        deps.pg,
        id,
        decimalOf(
          (ctx.state['body'] as { maxNegativeBalance: number | string }).maxNegativeBalance,
          'maxNegativeBalance',
          { positive: false },
        ),
      );
      if (result === 'no-creator') throw new NotFoundError(`No creator ${id}`);
      if (result === 'below')
        throw new AppError(409, 'CONFLICT', 'The balance is already below that allowance', {
          errors: [{ field: 'maxNegativeBalance', message: 'must cover the current negative balance' }],
        });
      ctx.body = {
        creatorId: id,
        amount: creditText(result.balance),
        maxNegativeBalance: creditText(result.max_negative_balance),
      };
    },
  );
  router.get(
    '/credits/:creatorId',
    describe({
      summary: 'Credit balance of a creator with its recent operations',
      response: accountSchema,
      errors: [404],
    }),
    validate({ params: creatorParams, query: none }),
    async (ctx) => {
      const { creatorId: id } = ctx.state['params'] as { creatorId: string };
      const { creator, account } = await loadAccount(deps.pg, id);
      if (!creator) throw new NotFoundError(`No creator ${id}`);
      ctx.body = {
        creatorId: id,
        amount: creditText(account?.balance),
        maxNegativeBalance: creditText(account?.max_negative_balance),
        Creator: {
          id: creator.id,
          icon: creator.icon,
          name: creator.name,
          rebateFee: creator.rebate_fee,
          hubspotCompanyId: null,
        },
        CreditOperations: (await listOperations(deps.pg, id, 0, 20)).map(serializeOperation),
      };
    },
  );
  router.get(
    '/credits/:creatorId/operations',
    describe({
      summary: 'Credit operations of a creator, newest first',
      response: arr(operationSchema),
      errors: [404],
    }),
    validate({ params: creatorParams, query: pageQuery }),
    async (ctx) => {
      const { creatorId: id } = ctx.state['params'] as { creatorId: string };
      const { page, items } = ctx.state['query'] as { page: number; items: number };
      if (!(await loadAccount(deps.pg, id)).creator) throw new NotFoundError(`No creator ${id}`);
      ctx.body = (await listOperations(deps.pg, id, page, items)).map(serializeOperation);
    },
  );
  return router;
}
