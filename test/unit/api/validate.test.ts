import { expect } from 'chai';
import type { ErrorObject } from 'ajv';
import type { Context } from 'koa';
import { ValidationError } from '../../../api/errors.js';
import { listCampaignsQuery } from '../../../api/reads/campaigns/schema.js';
import { fields, toFieldErrors, validate } from '../../../api/validate.js';

type FakeCtx = {
  query: Record<string, unknown>;
  params: Record<string, unknown>;
  request: { body?: unknown };
  state: Record<string, unknown>;
};

function fakeCtx(parts: Partial<Omit<FakeCtx, 'state'>> = {}): FakeCtx {
  return { query: parts.query ?? {}, params: parts.params ?? {}, request: parts.request ?? {}, state: {} };
}

/** Runs the middleware; returns how many times next ran and what it threw. */
async function run(
  middleware: ReturnType<typeof validate>,
  ctx: FakeCtx,
): Promise<{ nextCalls: number; error: unknown }> {
  let nextCalls = 0;
  try {
    await middleware(ctx as unknown as Context, async () => {
      nextCalls++;
    });
    return { nextCalls, error: null };
  } catch (error) {
    return { nextCalls, error };
  }
}

function errorObject(partial: Partial<ErrorObject> & Pick<ErrorObject, 'keyword'>): ErrorObject {
  return { instancePath: '', schemaPath: '#', params: {}, message: 'is bad', ...partial };
}

const bodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'enabled'],
  properties: {
    name: { type: 'string', minLength: 1 },
    enabled: fields.boolean,
    weight: { type: 'integer', minimum: 0, default: 1 },
  },
} as const;
const paramsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId'],
  properties: { chainId: fields.chainId },
} as const;
const listQuery = validate({ query: listCampaignsQuery });

describe('api/validate', () => {
  describe('toFieldErrors', () => {
    it('returns [] for no errors', () => {
      expect(toFieldErrors(null, 'query')).to.deep.equal([]);
      expect(toFieldErrors(undefined, 'query')).to.deep.equal([]);
    });

    it('names a nested field with dots', () => {
      expect(
        toFieldErrors(
          [errorObject({ keyword: 'type', instancePath: '/creator/address', message: 'must be string' })],
          'body',
        ),
      ).to.deep.equal([{ field: 'creator.address', message: 'must be string' }]);
    });

    it('names the missing property of a required error', () => {
      const errors = [
        errorObject({ keyword: 'required', params: { missingProperty: 'name' } }),
        errorObject({ keyword: 'required', instancePath: '/creator', params: { missingProperty: 'address' } }),
      ];
      expect(toFieldErrors(errors, 'body')).to.deep.equal([
        { field: 'name', message: 'is required' },
        { field: 'creator.address', message: 'is required' },
      ]);
    });

    it('names the additional property and where it was sent', () => {
      expect(
        toFieldErrors(
          [errorObject({ keyword: 'additionalProperties', params: { additionalProperty: 'foo' } })],
          'query',
        ),
      ).to.deep.equal([{ field: 'foo', message: 'is not an accepted query field' }]);
    });

    it('lists the allowed values of an enum', () => {
      expect(
        toFieldErrors(
          [errorObject({ keyword: 'enum', instancePath: '/status', params: { allowedValues: ['LIVE', 'PAST'] } })],
          'query',
        ),
      ).to.deep.equal([{ field: 'status', message: 'must be one of LIVE, PAST' }]);
    });

    it('names the whole part when the error is at its root', () => {
      expect(toFieldErrors([errorObject({ keyword: 'type', message: 'must be object' })], 'body')).to.deep.equal([
        { field: 'body', message: 'must be object' },
      ]);
    });

    it('reports a repeated (field, message) once', () => {
      const e = errorObject({ keyword: 'type', instancePath: '/items', message: 'must be integer' });
      expect(toFieldErrors([e, { ...e }], 'query')).to.have.length(1);
    });
  });

  describe('validate', () => {
    it('coerces query strings ("5" → 5) and puts the result on ctx.state.query, then calls next', async () => {
      const ctx = fakeCtx({ query: { items: '5', chainId: '31337' } });
      const { nextCalls, error } = await run(listQuery, ctx);
      expect(error).to.equal(null);
      expect(nextCalls).to.equal(1);
      expect(ctx.state['query']).to.deep.equal({ page: 0, items: 5, chainId: 31337 });
    });

    it('keeps JSON types (issue 16): only strings are converted, a boolean is not a string nor a number a boolean, a scalar not a list', async () => {
      const json = (body: unknown) => ({
        ...fakeCtx({ request: { body } }),
        request: { body, is: (...types: string[]) => (types.includes('json') ? 'json' : false) },
      });
      const listSchema = {
        type: 'object',
        properties: {
          tags: { type: 'array', items: { type: 'string' } },
          values: { type: 'array', items: { type: 'integer' } },
        },
      } as const;
      const converted = json({ name: 'a', enabled: 'true', weight: '3' });
      await run(validate({ body: bodySchema }), converted as never);
      expect(converted.state['body']).to.deep.equal({ name: 'a', enabled: true, weight: 3 });
      for (const [schema, body, field] of [
        [bodySchema, { name: false, enabled: true }, 'name'],
        [bodySchema, { name: 'a', enabled: 1 }, 'enabled'],
        [listSchema, { tags: false }, 'tags'],
        [listSchema, { values: [true, null] }, 'values.0'],
        [listSchema, { tags: 'x' }, 'tags'],
      ] as const) {
        const { error } = await run(validate({ body: schema }), json(body) as never);
        expect(
          (error as ValidationError | null)?.errors?.map((e) => e.field),
          JSON.stringify(body),
        ).to.include(field);
      }
    });

    it('coerces "true" → true', async () => {
      const ctx = fakeCtx({ request: { body: { name: 'a', enabled: 'true' } } });
      await run(validate({ body: bodySchema }), ctx);
      expect(ctx.state['body']).to.deep.equal({ name: 'a', enabled: true, weight: 1 });
    });

    it('coerces query booleans sent as 1 / 0', async () => {
      const middleware = validate({
        query: {
          type: 'object',
          additionalProperties: false,
          properties: { test: fields.boolean, items: fields.items },
        },
      });
      const on = fakeCtx({ query: { test: '1', items: '1' } });
      await run(middleware, on);
      expect(on.state['query']).to.deep.equal({ test: true, items: 1 });
      const off = fakeCtx({ query: { test: '0' } });
      await run(middleware, off);
      expect(off.state['query']).to.deep.equal({ test: false, items: 20 });
    });

    it('splits comma lists of array query parameters like repeated keys (issue 31: ?ids=a,b)', async () => {
      const schema = {
        type: 'object',
        additionalProperties: false,
        properties: { ids: { type: 'array', items: { type: 'string', minLength: 1 } }, name: { type: 'string' } },
      } as const;
      const ctx = fakeCtx({ query: { ids: ['a,b', 'c'], name: 'x,y' } });
      expect((await run(validate({ query: schema }), ctx)).nextCalls).to.equal(1);
      expect(ctx.state['query']).to.deep.equal({ ids: ['a', 'b', 'c'], name: 'x,y' });
      const single = fakeCtx({ query: { ids: ' a , b ,' } });
      await run(validate({ query: schema }), single);
      expect(single.state['query']).to.deep.equal({ ids: ['a', 'b'] });
    });

    it('explains a failed pattern in words: x-accepts, else without the regular expression (issue 31)', () => {
      const errors = [
        errorObject({
          keyword: 'pattern',
          instancePath: '/id',
          parentSchema: { type: 'string', pattern: '^[0-9]+$', 'x-accepts': 'a campaign id' },
        }),
        errorObject({ keyword: 'pattern', instancePath: '/name', parentSchema: { type: 'string', pattern: '^a$' } }),
      ];
      expect(toFieldErrors(errors, 'params')).to.deep.equal([
        { field: 'id', message: 'must be a campaign id' },
        { field: 'name', message: 'is not in the accepted format' },
      ]);
    });

    it('explains a bad comma list in plain words', async () => {
      const { error } = await run(listQuery, fakeCtx({ query: { status: 'LIVE,NOW' } }));
      expect((error as ValidationError).errors).to.deep.equal([
        { field: 'status', message: 'must be a comma-separated list of LIVE, PAST, SOON' },
      ]);
    });

    it('applies defaults', async () => {
      const ctx = fakeCtx();
      await run(listQuery, ctx);
      expect(ctx.state['query']).to.deep.equal({ page: 0, items: 20 });
    });

    it('leaves ctx.query untouched', async () => {
      const ctx = fakeCtx({ query: { items: '5' } });
      await run(listQuery, ctx);
      expect(ctx.query).to.deep.equal({ items: '5' });
    });

    it('validates path params', async () => {
      const ctx = fakeCtx({ params: { chainId: '8453' } });
      await run(validate({ params: paramsSchema }), ctx);
      expect(ctx.state['params']).to.deep.equal({ chainId: 8453 });
      const bad = await run(validate({ params: paramsSchema }), fakeCtx({ params: { chainId: 'base' } }));
      expect((bad.error as ValidationError).errors).to.deep.equal([{ field: 'chainId', message: 'must be integer' }]);
    });

    it('throws a 400 ValidationError naming an additional property, without calling next', async () => {
      const { nextCalls, error } = await run(listQuery, fakeCtx({ query: { foo: 'bar' } }));
      expect(nextCalls).to.equal(0);
      expect(error).to.be.instanceOf(ValidationError);
      expect((error as ValidationError).status).to.equal(400);
      expect((error as ValidationError).code).to.equal('VALIDATION_FAILED');
      expect((error as ValidationError).errors).to.deep.equal([
        { field: 'foo', message: 'is not an accepted query field' },
      ]);
    });

    it('names a missing required body field', async () => {
      const { error } = await run(validate({ body: bodySchema }), fakeCtx({ request: { body: { enabled: false } } }));
      expect((error as ValidationError).errors).to.deep.equal([{ field: 'name', message: 'is required' }]);
    });

    it('treats a missing body as {}', async () => {
      const { error } = await run(validate({ body: bodySchema }), fakeCtx());
      expect((error as ValidationError).errors).to.have.deep.members([
        { field: 'name', message: 'is required' },
        { field: 'enabled', message: 'is required' },
      ]);
    });

    it('reports every bad field, across query and body, in one error', async () => {
      const middleware = validate({ query: listCampaignsQuery, body: bodySchema });
      const ctx = fakeCtx({
        query: { items: 'abc', chainId: '0', status: 'NOW' },
        request: { body: { name: '', enabled: 'maybe' } },
      });
      const { nextCalls, error } = await run(middleware, ctx);
      expect(nextCalls).to.equal(0);
      expect(error).to.be.instanceOf(ValidationError);
      expect((error as ValidationError).errors!.map((e) => e.field)).to.have.members([
        'items',
        'chainId',
        'status',
        'name',
        'enabled',
      ]);
      expect((error as ValidationError).message)
        .to.match(/items/)
        .and.match(/enabled/);
    });

    it('rejects items above the maximum and page below 0', async () => {
      const { error } = await run(listQuery, fakeCtx({ query: { items: '101', page: '-1' } }));
      expect((error as ValidationError).errors!.map((e) => e.field)).to.have.members(['items', 'page']);
    });
  });

  describe('inputs PostgreSQL cannot store or hold', () => {
    it('refuses NUL characters anywhere in a string, naming the field (PostgreSQL text cannot hold U+0000)', async () => {
      const { error, nextCalls } = await run(
        validate({ query: listCampaignsQuery, body: { type: 'object' } }),
        fakeCtx({ query: { search: 'a\u0000b' }, request: { body: { deep: { name: 'x\u0000' } } } }),
      );
      expect(nextCalls).to.equal(0);
      expect((error as ValidationError).errors).to.deep.equal([
        { field: 'search', message: 'must not contain NUL characters' },
        { field: 'deep.name', message: 'must not contain NUL characters' },
      ]);
    });

    it('bounds chain ids and int32 patterns to 2^31-1 (integer columns)', async () => {
      const int32 = new RegExp(`^${fields.int32Pattern}$`);
      expect(['0', '2147483647', '1313161554', '999999999'].every((v) => int32.test(v))).to.equal(true);
      expect(['2147483648', '5871920265', '99999999999', '-1'].some((v) => int32.test(v))).to.equal(false);
      const { error } = await run(
        validate({ params: paramsSchema }),
        fakeCtx({ params: { chainId: String(2 ** 31) } }),
      );
      expect((error as ValidationError).errors!.map((e) => e.field)).to.deep.equal(['chainId']);
    });
  });
});
