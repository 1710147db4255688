import Router from '@koa/router';
import { expect } from 'chai';
import Koa from 'koa';
import request from 'supertest';
import { bodyParser } from '../../../api/middleware/bodyParser.js';
import { errorHandler } from '../../../api/middleware/errorHandler.js';
import { batchUpsertBody } from '../../../api/routes/key-value-stores/schema.js';
import { validate } from '../../../api/validate.js';

const ENTRIES = [{ address: `0x${'ab'.repeat(20)}`, value: '{"multiplier":2}' }];

/** The real body parser and validator in front of an echo of the validated body. */
function batchApp() {
  const app = new Koa();
  app.use(errorHandler);
  app.use(bodyParser());
  const router = new Router();
  router.put('/batch', validate({ body: batchUpsertBody }), (ctx) => void (ctx.body = ctx.state['body']));
  app.use(router.routes());
  return app.callback();
}

describe('form and multipart bodies with an array or object field (OpenAPI encoding, issue #31 item 10)', () => {
  it('accepts the field as JSON text in multipart/form-data, as the document says', async () => {
    const res = await request(batchApp()).put('/batch').field('entries', JSON.stringify(ENTRIES)).expect(200);
    expect(res.body).to.deep.equal({ entries: ENTRIES });
  });

  it('accepts it as JSON text or in bracket notation in a URL-encoded form', async () => {
    const json = await request(batchApp())
      .put('/batch')
      .type('form')
      .send(`entries=${encodeURIComponent(JSON.stringify(ENTRIES))}`)
      .expect(200);
    expect(json.body).to.deep.equal({ entries: ENTRIES });
    const brackets = await request(batchApp())
      .put('/batch')
      .type('form')
      .send(`entries[0][address]=${ENTRIES[0]!.address}&entries[0][value]=${encodeURIComponent(ENTRIES[0]!.value)}`)
      .expect(200);
    expect(brackets.body).to.deep.equal({ entries: ENTRIES });
  });

  it('names the field when its text is not JSON, and the entry field inside it when an entry is wrong', async () => {
    const notJson = await request(batchApp()).put('/batch').field('entries', '[not json').expect(400);
    // The form ajv coerces a lone value to a one-item list (query conventions), so the text is entries.0.
    expect(notJson.body.errors).to.deep.equal([{ field: 'entries.0', message: 'must be object' }]);
    const bad = await request(batchApp())
      .put('/batch')
      .field('entries', JSON.stringify([{ address: '0x1', value: 'x' }]))
      .expect(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).to.include('entries.0.address');
  });
});
