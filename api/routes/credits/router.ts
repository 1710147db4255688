import Router from '@koa/router';
import { describe } from '../../openapi/describe.js';
import { arr, nullable, num, obj, str } from '../../openapi/schemaHelpers.js';
import type { ApiDeps } from '../../deps.js';
import type { AuthState } from '../../identity/types.js';
import { requireBackOffice } from '../../middleware/auth.js';
import { validate } from '../../validate.js';
import { accountHandler, allowanceHandler, moveCreditsHandler, operationsHandler, pricingHandler } from './handlers.js';
import { CREDIT_PRICING } from './pricing.js';
import { allowanceBody, creatorParams, moveBody, none, pageQuery } from './schema.js';

/** Credit amounts are served as exact decimal strings (numeric(30, 6) in PostgreSQL; a JSON number would round past 15–17 digits). */
const credit = { type: 'string', pattern: '^-?[0-9]+(\\.[0-9]{1,6})?$', description: 'Exact decimal string' } as const;

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

/**
 * Credits (docs/api-behaviour.md#credits): public pricing, balance with recent operations, and paged operations
 * per creator; back-office add, subtract and the negative-balance allowance. Moves are atomic,
 * never take a balance below -maxNegativeBalance, and are idempotent with a client key (header
 * `Idempotency-Key` or body `idempotencyKey`): a retry answers the first result, the same key for
 * another operation is 409. Tables: creators, credit_accounts, credit_operations.
 */
export function creditsRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  router.get(
    '/credits/pricing',
    describe({
      summary: 'Credit price list',
      description: 'The price in credits of each billable operation.',
      response: obj(Object.fromEntries(Object.keys(CREDIT_PRICING).map((k) => [k, num]))),
    }),
    validate({ query: none }),
    pricingHandler(),
  );
  router.post(
    '/credits',
    describe({
      summary: 'Add credits to a creator (back office; idempotent with Idempotency-Key)',
      description:
        "Adds credits to a creator's balance (back office). A repeated request with the same `Idempotency-Key` header is applied once.",
      response: balanceSchema,
      errors: [404, 409],
    }),
    requireBackOffice,
    validate({ body: moveBody }),
    moveCreditsHandler(deps, 'ADD'),
  );
  router.post(
    '/credits/subtract',
    describe({
      summary: 'Subtract credits, never below the allowed negative balance (back office)',
      description:
        "Subtracts credits from a creator's balance, never below the creator's allowed negative balance (409 when it would).",
      response: balanceSchema,
      errors: [404, 409],
    }),
    requireBackOffice,
    validate({ body: moveBody }),
    moveCreditsHandler(deps, 'SUBTRACT'),
  );
  router.put(
    '/credits/:creatorId/allowance',
    describe({
      summary: 'Set how far below zero a creator balance may go (back office)',
      description: "Sets how far below zero the creator's balance may go (409 when the balance is already below it).",
      response: obj({ creatorId: str, amount: credit, maxNegativeBalance: credit }),
      errors: [404, 409],
    }),
    requireBackOffice,
    validate({ params: creatorParams, body: allowanceBody }),
    allowanceHandler(deps),
  );
  router.get(
    '/credits/:creatorId',
    describe({
      summary: 'Credit balance of a creator with its recent operations',
      description: "The creator's credit balance (exact decimal strings) with its latest operations.",
      response: accountSchema,
      errors: [404],
    }),
    validate({ params: creatorParams, query: none }),
    accountHandler(deps),
  );
  router.get(
    '/credits/:creatorId/operations',
    describe({
      summary: 'Credit operations of a creator, newest first',
      description: "The creator's credit operations, newest first.",
      response: arr(operationSchema),
      errors: [404],
    }),
    validate({ params: creatorParams, query: pageQuery }),
    operationsHandler(deps),
  );
  return router;
}
