import Router from '@koa/router';
import { expect } from 'chai';
import Koa from 'koa';
import request from 'supertest';
import { bodyParser } from '../../../../api/middleware/bodyParser.js';
import { errorHandler } from '../../../../api/middleware/errorHandler.js';

function echoApp() {
  const app = new Koa();
  app.use(errorHandler);
  app.use(bodyParser());
  const router = new Router();
  router.post('/echo', (ctx) => void (ctx.body = { body: (ctx.request as { body?: unknown }).body }));
  app.use(router.routes());
  return app.callback();
}

describe('api/middleware/bodyParser', () => {
  it('accepts JSON, urlencoded and multipart bodies alike', async () => {
    expect((await request(echoApp()).post('/echo').send({ a: 1, b: true })).body).to.deep.equal({
      body: { a: 1, b: true },
    });
    expect((await request(echoApp()).post('/echo').type('form').send('a=1&b=true')).body).to.deep.equal({
      body: { a: '1', b: 'true' },
    });
    expect((await request(echoApp()).post('/echo').field('a', '1').field('b', 'true')).body).to.deep.equal({
      body: { a: '1', b: 'true' },
    });
  });

  it('answers malformed JSON with a 400 problem body and an oversized body with 413', async () => {
    const bad = await request(echoApp()).post('/echo').set('content-type', 'application/json').send('{bad').expect(400);
    expect(bad.headers['content-type']).to.match(/^application\/problem\+json/);
    await request(echoApp())
      .post('/echo')
      .send({ a: 'x'.repeat(100_000) })
      .expect(413);
  });

  it('answers a body its parser cannot read (multipart without a boundary) with a 400 naming the body', async () => {
    const res = await request(echoApp())
      .post('/echo')
      .set('content-type', 'multipart/form-data')
      .send('{"a":1}')
      .expect(400);
    expect(res.body.errors).to.deep.equal([{ field: 'body', message: 'could not be parsed' }]);
  });
});
