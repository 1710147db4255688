import { expect } from 'chai';
import type Koa from 'koa';
import supertest from 'supertest';
import { PROBLEMS, problemTypeOf } from '../../../api/problems/registry.js';
import { type AppWithoutChains, createAppWithoutChains } from '../../helpers/appWithoutChains.js';

/**
 * Every problem body's `type` resolves: the real app (production middleware) serves GET /problems and
 * GET /problems/{slug} for every code of the registry (api/problems/registry.ts), HTML or JSON, and the
 * `type` of problems the app really answers leads to the page of their code.
 */
describe('problem pages: every problem type resolves to a page of the API', function () {
  let app: Koa;
  let served: AppWithoutChains;
  const request = () => supertest(app.callback());

  before(function () {
    served = createAppWithoutChains('test-problems');
    app = served.app;
  });

  after(async () => served?.close());

  it('serves a page for the type of every code of the registry, HTML and JSON', async function () {
    for (const problem of Object.values(PROBLEMS)) {
      const type = problemTypeOf(problem.code);
      const html = await request().get(type).expect(200);
      expect(html.headers['content-type'], type).to.match(/^text\/html/);
      expect(html.headers['content-security-policy'], type).to.include("default-src 'none'");
      expect(html.text, type).to.include(`<code>${problem.code}</code>`);
      expect(html.text, type).to.include(`HTTP ${problem.status}`);
      const json = await request().get(type).set('Accept', 'application/json').expect(200);
      expect(json.body, type).to.include({ type, code: problem.code, title: problem.title, status: problem.status });
      expect(json.body.description, type).to.equal(problem.description);
      // With a trailing slash too, as every route.
      await request().get(`${type}/`).expect(200);
    }
  });

  it('lists every code at /problems, each linking to its page', async function () {
    const html = await request().get('/problems').expect(200);
    const json = await request().get('/problems/').set('Accept', 'application/json').expect(200);
    const codes = Object.keys(PROBLEMS);
    for (const code of codes) expect(html.text).to.include(`href="${problemTypeOf(code as keyof typeof PROBLEMS)}"`);
    expect(json.body.problems.map((p: { code: string }) => p.code)).to.deep.equal(codes);
  });

  it('answers the types of problems the app really sends: unknown route, bad query, wrong method, unknown problem', async function () {
    const answers = await Promise.all([
      request().get('/v4/no-such-route'),
      request().get('/v4/opportunities?items=many'),
      request().post('/problems'),
      request().get('/problems/no-such-problem'),
    ]);
    expect(answers.map((a) => [a.status, a.body.code])).to.deep.equal([
      [404, 'NOT_FOUND'],
      [400, 'VALIDATION_FAILED'],
      [405, 'METHOD_NOT_ALLOWED'],
      [404, 'NOT_FOUND'],
    ]);
    for (const answer of answers) {
      expect(answer.headers['content-type']).to.match(/^application\/problem\+json/);
      const page = await request().get(answer.body.type).set('Accept', 'application/json').expect(200);
      expect(page.body.code).to.equal(answer.body.code);
    }
  });
});
