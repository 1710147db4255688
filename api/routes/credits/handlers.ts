import type { ApiDeps } from '../../deps.js';
import { AppError, NotFoundError, ValidationError } from '../../errors.js';
import { acceptsHeaders } from '../../middleware/corsRoutes.js';
import type { Handler } from '../../validate.js';
import { decimalOf } from './decimal.js';
import { CREDIT_PRICING } from './pricing.js';
import { creditText, listOperations, loadAccount, moveCredits, setMaxNegativeBalance } from './repo.js';
import type { allowanceBody, creatorParams, moveBody, none, pageQuery } from './schema.js';
import { serializeOperation } from './serialize.js';
import { PROBLEMS } from '../../problems/registry.js';

/** One handler type for the move and its acceptsHeaders() wrapping (two spellings are compared structurally, too deep for tsc). */
type MoveHandler = Handler<{ body: typeof moveBody }>;

/** GET /v4/credits/pricing: the price list. */
export function pricingHandler(): Handler<{ query: typeof none }> {
  return (ctx) => void (ctx.body = CREDIT_PRICING);
}

/**
 * POST /v4/credits (ADD) and /v4/credits/subtract (SUBTRACT), back office: an atomic move, idempotent
 * with the `Idempotency-Key` header or body `idempotencyKey` (a replay answers the first result with
 * `Idempotent-Replayed: true`; the same key for another operation is 409).
 */
export function moveCreditsHandler(deps: ApiDeps, type: 'ADD' | 'SUBTRACT'): MoveHandler {
  const move: MoveHandler = async (ctx) => {
    const body = ctx.state.body;
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
            PROBLEMS.CONFLICT,
            `Idempotency key ${idempotencyKey} was already used for a different operation`,
          );
        case 'insufficient':
          throw new AppError(
            PROBLEMS.INSUFFICIENT_CREDITS,
            `Balance ${creditText(result.balance)} cannot go below ${creditText(result.floor)}`,
            { extensions: { balance: creditText(result.balance), floor: creditText(result.floor) } },
          );
      }
    }
    if (result.replayed) ctx.set('idempotent-replayed', 'true');
    ctx.body = { creatorId: body.creatorId, amount: creditText(result.balance) };
  };
  return acceptsHeaders(move, ['idempotency-key']);
}

/** PUT /v4/credits/{creatorId}/allowance (back office): 409 when the balance is already below the new allowance. */
export function allowanceHandler(deps: ApiDeps): Handler<{ params: typeof creatorParams; body: typeof allowanceBody }> {
  return async (ctx) => {
    const { creatorId: id } = ctx.state.params;
    const result = await setMaxNegativeBalance(
      deps.pg,
      id,
      decimalOf(ctx.state.body.maxNegativeBalance, 'maxNegativeBalance', { positive: false }),
    );
    if (result === 'no-creator') throw new NotFoundError(`No creator ${id}`);
    if (result === 'below')
      throw new AppError(PROBLEMS.CONFLICT, 'The balance is already below that allowance', {
        errors: [{ field: 'maxNegativeBalance', message: 'must cover the current negative balance' }],
      });
    ctx.body = {
      creatorId: id,
      amount: creditText(result.balance),
      maxNegativeBalance: creditText(result.max_negative_balance),
    };
  };
}

/** GET /v4/credits/{creatorId}: the balance with the 20 most recent operations. */
export function accountHandler(deps: ApiDeps): Handler<{ params: typeof creatorParams; query: typeof none }> {
  return async (ctx) => {
    const { creatorId: id } = ctx.state.params;
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
  };
}

/** GET /v4/credits/{creatorId}/operations: one page of operations, newest first. */
export function operationsHandler(deps: ApiDeps): Handler<{ params: typeof creatorParams; query: typeof pageQuery }> {
  return async (ctx) => {
    const { creatorId: id } = ctx.state.params;
    const { page, items } = ctx.state.query;
    if (!(await loadAccount(deps.pg, id)).creator) throw new NotFoundError(`No creator ${id}`);
    ctx.body = (await listOperations(deps.pg, id, page, items)).map(serializeOperation);
  };
}
