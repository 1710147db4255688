import Router from '@koa/router';
import { tokenDbId } from '../../../domain/ids.js';
import { auditActorOf } from '../../audit/auditActor.js';
import { nowSeconds, readPgOf, type ApiDeps } from '../../deps.js';
import { AppError, NotFoundError, ValidationError } from '../../errors.js';
import type { AuthState } from '../../identity/types.js';
import { requireBackOffice } from '../../middleware/auth.js';
import { describe } from '../../openapi/describe.js';
import { tokenSchema } from '../../openapi/records.js';
import { type Handler, validate } from '../../validate.js';
import { readUnknownToken, withPrices } from '../../reads/tokens/tokenRecords.js';
import { countTokenRows } from '../../reads/tokens/repo.js';
import { listTokensQuery } from '../../reads/tokens/schema.js';
import { insertToken, tokenExists, type TokenChanges, updateToken } from './tokenWrites.js';
import { createTokenBody, patchTokenBody, storedTokenParams, TOKEN_COLUMN_OF } from './tokenSchema.js';
import { writeAndPublish } from '../../search/writeAndPublish.js';
import { PROBLEMS } from '../../problems/registry.js';

const countSchema = { type: 'integer', minimum: 0 } as const;

/** The body's fields as tokens columns. */
function columnsOf(body: Record<string, unknown>): TokenChanges {
  const changes: TokenChanges = {};
  for (const [field, column] of Object.entries(TOKEN_COLUMN_OF)) if (field in body) changes[column] = body[field];
  return changes;
}

/** The token as GET /v4/tokens/{id} serves it (with its price), read on the primary right after the write. */
async function served(deps: ApiDeps, row: Parameters<typeof withPrices>[1][number]) {
  const [token] = await withPrices(deps, [row], new Date(nowSeconds(deps) * 1000));
  return token;
}

/** GET /v4/tokens/count: the number of tokens GET /v4/tokens matches with the same filters, every page. */
function countTokensHandler(deps: ApiDeps): Handler<{ query: typeof listTokensQuery }> {
  return async (ctx) => {
    const now = new Date(nowSeconds(deps) * 1000);
    ctx.body = await countTokenRows(readPgOf(deps), ctx.state.query, now, deps.config.prices.maxAgeSeconds);
  };
}

/**
 * POST /v4/tokens (back office): adds a token. `symbol`, `decimals` and `name` left out are read from the chain (a
 * chain we do not index, or an address that is no ERC20 token, is a 400 naming `symbol`); every field given is curated.
 */
function createTokenHandler(deps: ApiDeps): Handler<{ body: typeof createTokenBody }> {
  return async (ctx) => {
    const body = ctx.state.body;
    const address = body.address.toLowerCase();
    const given = columnsOf(body);
    const values: TokenChanges = { ...given };
    if (body.symbol === undefined || body.decimals === undefined) {
      const [read] = await readUnknownToken(deps, body.chainId, address);
      if (!read && (await tokenExists(deps.pg, tokenDbId(body.chainId, address))))
        throw new AppError(PROBLEMS.CONFLICT, `Token ${address} on chain ${body.chainId} exists: PATCH it`);
      if (!read)
        throw new ValidationError([
          { field: 'symbol', message: 'and decimals are required: the address is no ERC20 token on a chain we read' },
        ]);
      values.symbol ??= read.symbol;
      values.decimals ??= read.decimals;
      if (!('name' in values)) values.name = read.name;
    }
    const row = { id: tokenDbId(body.chainId, address), chain_id: body.chainId, address };
    const created = await writeAndPublish(deps, (tx) =>
      insertToken(tx, auditActorOf(ctx), row, values, Object.keys(given)),
    );
    if (!created) throw new AppError(PROBLEMS.CONFLICT, `Token ${address} on chain ${body.chainId} exists: PATCH it`);
    ctx.status = 201;
    ctx.body = await served(deps, created);
  };
}

/** PATCH /v4/tokens/{id} (back office): sets the given fields and curates them (404 for an unknown token). */
function patchTokenHandler(deps: ApiDeps): Handler<{ params: typeof storedTokenParams; body: typeof patchTokenBody }> {
  return async (ctx) => {
    const { params, body } = ctx.state;
    if (body.underlyingTokenId === params.id)
      throw new ValidationError([{ field: 'underlyingTokenId', message: 'must name another token' }]);
    if (body.underlyingTokenId && !(await tokenExists(deps.pg, body.underlyingTokenId)))
      throw new ValidationError([{ field: 'underlyingTokenId', message: 'names no stored token' }]);
    const updated = await writeAndPublish(deps, (tx) => updateToken(tx, auditActorOf(ctx), params.id, columnsOf(body)));
    if (!updated) throw new NotFoundError(`Token ${params.id} not found`);
    ctx.body = await served(deps, updated);
  };
}

/**
 * Token curation (back office) and the token count. A field the back office sets (POST or PATCH) is recorded in
 * tokens.curated_fields and the tokens job (jobs/syncTokens.ts: metadata re-read from chain, the chain config's flags)
 * leaves it alone from then on, so an operator's icon, verification or display symbol survives every run; reads need
 * nothing else (the row holds the served value). Each write records its audit row (before/after) in its transaction and
 * republishes the campaigns rewarding in the token and the opportunities naming it before answering. The hosted
 * service has no token DELETE (a token is referenced by campaigns, prices, whitelists), nor do we.
 * Tables: tokens, token_prices, back_office_audit, search_outbox.
 */
export function tokenCurationRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  router.get(
    ['/tokens/count', '/tokens/count/'],
    describe({
      summary: 'Count of the tokens matching the filters',
      description:
        'How many tokens GET /v4/tokens matches with the same filters, over every page (`page` and `items` are accepted and ignored). Test tokens count only with `test=true`.',
      response: countSchema,
      example: 42,
    }),
    validate({ query: listTokensQuery }),
    countTokensHandler(deps),
  );
  router.post(
    ['/tokens', '/tokens/'],
    describe({
      summary: 'Add a token (back office)',
      description:
        'Adds a token of `chainId` at `address` with its `icon` and `verified` flag, and optionally its `displaySymbol`, `name`, `type`, `isTest`, `symbol` and `decimals` (read from the chain when left out; a 400 naming `symbol` when the address is no ERC20 token on a chain we read). Every field given is curated: the tokens job never overwrites it. A token the chain already has is a 409 (PATCH it). The write is audit-logged (GET /v4/audit) and the campaigns and opportunities naming the token are republished before the answer.',
      status: 201,
      response: tokenSchema,
      errors: [409],
      bodyExamples: {
        verified: {
          summary: 'A verified token with its icon',
          value: {
            chainId: 1,
            address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
            icon: 'https://icons.example.org/usdc.svg',
            verified: true,
            displaySymbol: 'USDC',
          },
        },
      },
    }),
    requireBackOffice,
    validate({ body: createTokenBody }),
    createTokenHandler(deps),
  );
  router.patch(
    ['/tokens/:id', '/tokens/:id/'],
    describe({
      summary: "Correct a token's icon, verification or display symbol (back office)",
      description:
        "Sets any of `icon`, `verified`, `displaySymbol`, `name`, `type`, `isTest`, `underlyingTokenId` (a stored token's id) of a stored token. The fields set are curated: the tokens job (metadata re-read from chain, the chain config's flags) leaves them as the operator set them. Audit-logged (GET /v4/audit); the campaigns rewarding in the token and the opportunities naming it are republished before the answer, so searches show the new symbol and icon.",
      response: tokenSchema,
      errors: [404],
      bodyExamples: {
        icon: {
          summary: 'A new icon and display symbol',
          value: { icon: 'https://icons.example.org/usdc.svg', displaySymbol: 'USDC.e' },
        },
        verify: { summary: 'Mark verified', value: { verified: true } },
      },
    }),
    requireBackOffice,
    validate({ params: storedTokenParams, body: patchTokenBody }),
    patchTokenHandler(deps),
  );
  return router;
}
