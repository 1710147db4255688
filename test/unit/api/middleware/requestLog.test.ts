import { expect } from 'chai';
import Koa from 'koa';
import pino from 'pino';
import request from 'supertest';
import { errorHandler } from '../../../../api/middleware/errorHandler.js';
import { requestLog } from '../../../../api/middleware/requestLog.js';
import { NotFoundError } from '../../../../api/errors.js';

/** An app whose handler waits `delayMs`, or throws a 404 on /missing; log lines are collected. */
function timedApp(delayMs: number) {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  const app = new Koa();
  app.use(requestLog(logger));
  app.use(errorHandler);
  app.use(async (ctx) => {
    if (ctx.path === '/missing') throw new NotFoundError('nothing here');
    if (ctx.path === '/own-timing') ctx.set('server-timing', 'distributed;desc=rollup');
    await new Promise((r) => setTimeout(r, delayMs));
    ctx.body = { ok: true };
  });
  return { callback: app.callback(), lines };
}

const appDuration = (header: string | undefined) => Number(/^app;dur=(\d+\.\d\d)$/.exec(header ?? '')?.[1]);

describe('api/middleware/requestLog', () => {
  it('echoes a well-formed x-request-id, makes one up for a malformed or missing one, and logs it', async () => {
    const { callback, lines } = timedApp(0);
    expect((await request(callback).get('/').set('x-request-id', 'abc-123')).headers['x-request-id']).to.equal(
      'abc-123',
    );
    const made = (await request(callback).get('/').set('x-request-id', 'bad id with spaces')).headers['x-request-id'];
    expect(made).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(lines.map((l) => l['request_id'])).to.deep.equal(['abc-123', made]);
  });

  it('tells the server-side time in Server-Timing, errors included', async () => {
    const { callback, lines } = timedApp(30);
    const res = await request(callback).get('/');
    const dur = appDuration(res.headers['server-timing']);
    expect(dur, res.headers['server-timing']).to.be.within(25, 5000);
    expect(lines[0]!['duration_ms']).to.be.closeTo(dur, 0.1);
    const missing = await request(callback).get('/missing').expect(404);
    expect(appDuration(missing.headers['server-timing'])).to.be.at.least(0);
    expect(lines[1]).to.include({ status: 404, path: '/missing' });
  });

  it("keeps a route's own Server-Timing entries after the app's", async () => {
    const res = await request(timedApp(0).callback).get('/own-timing');
    expect(res.headers['server-timing']).to.match(/^app;dur=\d+\.\d\d, distributed;desc=rollup$/);
  });
});
