import { errors as esErrors } from '@elastic/elasticsearch';
import { expect } from 'chai';
import Koa from 'koa';
import type { Context } from 'koa';
import request from 'supertest';
import { HttpRequestError } from 'viem';
import { AppError, NotFoundError, ServiceUnavailableError, ValidationError } from '../../../../api/errors.js';
import { errorHandler } from '../../../../api/middleware/errorHandler.js';
import { PROBLEMS } from '../../../../api/problems/registry.js';

type Emitted = { error: unknown; path: string | undefined };

/** A real Koa app: errorHandler, then a handler that throws `thrown` (or nothing for an unknown route). */
function appThrowing(thrown?: () => unknown): { app: Koa; emitted: Emitted[] } {
  const app = new Koa();
  const emitted: Emitted[] = [];
  app.on('error', (error: unknown, ctx?: Context) => emitted.push({ error, path: ctx?.path }));
  app.use(errorHandler);
  if (thrown) {
    app.use(() => {
      throw thrown();
    });
  }
  return { app, emitted };
}

const PROBLEM_KEYS = ['type', 'title', 'status', 'detail', 'instance', 'code'];

describe('api/middleware/errorHandler', () => {
  it('serves an AppError as a problem body with its status, code and message', async () => {
    const { app, emitted } = appThrowing(() => new AppError(PROBLEMS.CONFLICT, 'campaign 0xab already exists'));
    const res = await request(app.callback()).get('/v4/campaigns').expect(409);
    expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(res.body).to.deep.equal({
      type: '/problems/conflict',
      title: 'Conflict',
      status: 409,
      detail: 'campaign 0xab already exists',
      instance: '/v4/campaigns',
      code: 'CONFLICT',
    });
    expect(emitted).to.deep.equal([]);
  });

  it('serves a ValidationError as 400 listing the bad fields', async () => {
    const { app, emitted } = appThrowing(
      () =>
        new ValidationError([
          { field: 'items', message: 'must be integer' },
          { field: 'foo', message: 'is not an accepted query field' },
        ]),
    );
    const res = await request(app.callback()).get('/v4/campaigns?items=x&foo=1').expect(400);
    expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(Object.keys(res.body)).to.have.members([...PROBLEM_KEYS, 'errors']);
    expect(res.body).to.include({
      type: '/problems/validation-failed',
      title: 'Bad Request',
      status: 400,
      instance: '/v4/campaigns',
      code: 'VALIDATION_FAILED',
    });
    expect(res.body.detail).to.match(/items must be integer/);
    expect(res.body.errors).to.deep.equal([
      { field: 'items', message: 'must be integer' },
      { field: 'foo', message: 'is not an accepted query field' },
    ]);
    expect(emitted).to.deep.equal([]);
  });

  it('serves a NotFoundError as 404 NOT_FOUND', async () => {
    const { app } = appThrowing(() => new NotFoundError('campaign 42 not found'));
    const res = await request(app.callback()).get('/v4/campaigns/42').expect(404);
    expect(res.body).to.include({
      status: 404,
      code: 'NOT_FOUND',
      detail: 'campaign 42 not found',
      instance: '/v4/campaigns/42',
    });
  });

  it('serves a ServiceUnavailableError as 503 with its service, and emits it', async () => {
    const { app, emitted } = appThrowing(() => new ServiceUnavailableError('postgresql'));
    const res = await request(app.callback()).get('/v4/chains').expect(503);
    expect(res.body).to.include({
      status: 503,
      title: 'Service Unavailable',
      code: 'SERVICE_UNAVAILABLE',
      service: 'postgresql',
    });
    expect(emitted).to.have.length(1);
  });

  it('maps a PostgreSQL statement timeout (57014) to 503 naming the timeout, not a 500, and emits it', async () => {
    const { app, emitted } = appThrowing(() =>
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
    );
    const res = await request(app.callback()).get('/v4/rewards/total/distributed').expect(503);
    expect(res.body).to.include({ code: 'SERVICE_UNAVAILABLE', service: 'postgresql', reason: 'statement timeout' });
    expect(res.body.detail).to.match(/statement timeout/);
    expect(emitted).to.have.length(1);
  });

  it('maps an Elasticsearch ConnectionError to 503 SERVICE_UNAVAILABLE', async () => {
    const { app, emitted } = appThrowing(() => new esErrors.ConnectionError('connect ECONNREFUSED 127.0.0.1:59200'));
    const res = await request(app.callback()).get('/v4/campaigns').expect(503);
    expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(res.body).to.include({
      type: '/problems/service-unavailable',
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      service: 'elasticsearch',
    });
    expect(res.body.detail).not.to.match(/ECONNREFUSED/);
    expect(emitted).to.have.length(1);
    expect(emitted[0]!.error).to.be.instanceOf(esErrors.ConnectionError);
  });

  /** A ResponseError as the client builds it from an Elasticsearch error answer. */
  const esResponseError = (statusCode: number, type: string) =>
    new esErrors.ResponseError({
      body: { error: { type, reason: `${type}: internal detail` }, status: statusCode },
      statusCode,
      headers: {},
      warnings: null,
      meta: {} as never,
    });

  it('maps a missing Elasticsearch index to 503 (an outage), without Elasticsearch text', async () => {
    const { app, emitted } = appThrowing(() => esResponseError(404, 'index_not_found_exception'));
    const res = await request(app.callback()).get('/v4/campaigns').expect(503);
    expect(res.body).to.include({ code: 'SERVICE_UNAVAILABLE', service: 'elasticsearch' });
    expect(res.body.detail).not.to.match(/index_not_found/);
    expect(emitted).to.have.length(1);
  });

  it("maps an Elasticsearch ResponseError 4xx to a server-side problem (not the client's 4xx) and emits it", async () => {
    const { app, emitted } = appThrowing(() => esResponseError(400, 'search_phase_execution_exception'));
    const res = await request(app.callback()).get('/v4/campaigns').expect(500);
    expect(res.body).to.include({ code: 'INTERNAL' });
    expect(res.body.detail).not.to.match(/search_phase/);
    expect(emitted).to.have.length(1);
  });

  it('maps an Elasticsearch TimeoutError to 503', async () => {
    const { app } = appThrowing(() => new esErrors.TimeoutError('Request timed out'));
    const res = await request(app.callback()).get('/v4/campaigns').expect(503);
    expect(res.body).to.include({ code: 'SERVICE_UNAVAILABLE', service: 'elasticsearch' });
  });

  it('maps an RPC HttpRequestError to 503 with service rpc', async () => {
    const { app } = appThrowing(() => new HttpRequestError({ url: 'http://127.0.0.1:8545', status: 502 }));
    const res = await request(app.callback()).get('/v4/block-timestamp').expect(503);
    expect(res.body).to.include({ code: 'SERVICE_UNAVAILABLE', service: 'rpc' });
  });

  for (const [what, make] of [
    ['a query in flight when the server goes away', () => new Error('Connection terminated unexpectedly')],
    [
      'an admin shutdown (57P01)',
      () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    ],
    [
      'a server starting up (57P03)',
      () => Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    ],
    ['a connection exception (08006)', () => Object.assign(new Error('connection failure'), { code: '08006' })],
    ['a reset socket', () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
  ] as const) {
    it(`maps ${what} to 503 with service postgresql (PostgreSQL restarts)`, async () => {
      const { app } = appThrowing(make);
      const res = await request(app.callback()).get('/x').expect(503);
      expect(res.body).to.include({ code: 'SERVICE_UNAVAILABLE', service: 'postgresql' });
    });
  }

  for (const [what, code] of [
    ['a lock wait past lock_timeout', '55P03'],
    ['a deadlock', '40P01'],
    ['a serialization failure', '40001'],
  ] as const) {
    it(`maps ${what} (${code}) to a 503 to retry with service postgresql, never a 500`, async () => {
      const { app, emitted } = appThrowing(() => Object.assign(new Error('canceling statement'), { code }));
      const res = await request(app.callback()).patch('/v4/campaigns/x/privacy').expect(503);
      expect(res.body).to.include({ code: 'SERVICE_UNAVAILABLE', service: 'postgresql' });
      expect(emitted).to.have.length(1); // logged, as every 5xx
    });
  }

  it('maps a refused PostgreSQL connection to 503 with service postgresql', async () => {
    const { app } = appThrowing(() =>
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:55432'), { code: 'ECONNREFUSED' }),
    );
    const res = await request(app.callback()).get('/v4/chains').expect(503);
    expect(res.body).to.include({ code: 'SERVICE_UNAVAILABLE', service: 'postgresql' });
  });

  it('serves a plain Error as a generic 500, hiding its message, and emits it on the app', async () => {
    const boom = new Error('secret connection string postgres://user:pw@db');
    const { app, emitted } = appThrowing(() => boom);
    const res = await request(app.callback()).get('/v4/campaigns').expect(500);
    expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(res.body).to.deep.equal({
      type: '/problems/internal',
      title: 'Internal Server Error',
      status: 500,
      detail: 'An unexpected error occurred; it has been logged.',
      instance: '/v4/campaigns',
      code: 'INTERNAL',
    });
    expect(emitted).to.have.length(1);
    expect(emitted[0]!.error).to.equal(boom);
    expect(emitted[0]!.path).to.equal('/v4/campaigns');
  });

  it('serves an AppError with expose: false as a generic 500', async () => {
    const { app, emitted } = appThrowing(
      () => new AppError(PROBLEMS.BAD_REQUEST, 'internal detail', { expose: false }),
    );
    const res = await request(app.callback()).get('/x').expect(500);
    expect(res.body).to.include({ code: 'INTERNAL', detail: 'An unexpected error occurred; it has been logged.' });
    expect(emitted).to.have.length(1);
  });

  it('keeps the status of an exposed 4xx http error (ctx.throw) and sets Allow on 405', async () => {
    const { app } = appThrowing(() =>
      Object.assign(new Error('Method Not Allowed'), { status: 405, expose: true, headers: { Allow: 'GET, HEAD' } }),
    );
    const res = await request(app.callback()).post('/v4/campaigns').expect(405);
    expect(res.headers['allow']).to.equal('GET, HEAD');
    expect(res.body).to.include({ status: 405, title: 'Method Not Allowed', code: 'METHOD_NOT_ALLOWED' });
  });

  it('serves the router refusing a method no route implements (its 501, e.g. TRACE) as a 405 problem, never a 5xx', async () => {
    const { app, emitted } = appThrowing(() =>
      Object.assign(new Error('Not Implemented'), { status: 501, expose: false }),
    );
    const res = await request(app.callback()).trace('/v4/campaigns').expect(405);
    expect(res.body).to.include({ status: 405, title: 'Method Not Allowed', code: 'METHOD_NOT_ALLOWED' });
    expect(emitted).to.deep.equal([]);
  });

  it('turns an unknown route into a 404 problem body', async () => {
    const { app, emitted } = appThrowing();
    const res = await request(app.callback()).get('/nope').expect(404);
    expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(res.body).to.deep.equal({
      type: '/problems/not-found',
      title: 'Not Found',
      status: 404,
      detail: 'No route GET /nope',
      instance: '/nope',
      code: 'NOT_FOUND',
    });
    expect(emitted).to.deep.equal([]);
  });

  it('leaves successful responses alone', async () => {
    const app = new Koa();
    app.use(errorHandler);
    app.use((ctx) => {
      ctx.body = { ok: true };
    });
    const res = await request(app.callback()).get('/health').expect(200);
    expect(res.body).to.deep.equal({ ok: true });
  });
});
