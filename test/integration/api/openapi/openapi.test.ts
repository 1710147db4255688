import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { routeOperations } from '../../../../api/openapi/routeLayers.js';
import { createRoutes } from '../../../../api/routes/index.js';
import { createLogger } from '../../../../internal/logger.js';
import { createResponseValidator } from '../../../helpers/openApiValidator.js';
import { createReferenceDemo, type ReferenceDemo } from '../referenceDemo.js';
import { startTestOidcProvider, type TestOidcProvider } from '../../../helpers/oidcProvider.js';
import { getSamples, type GetSample } from './getSamples.js';

type Doc = Parameters<typeof createResponseValidator>[0] & {
  openapi: string;
  info: { version: string };
  components: { securitySchemes: Record<string, unknown> };
};

describe('GET /v4/openapi.json: the OpenAPI 3.1 document built from the mounted routes', function () {
  let demo: ReferenceDemo;
  let doc: Doc;
  let samples: Record<string, GetSample>;
  let idp: TestOidcProvider;

  before(async function () {
    this.timeout(600_000);
    // A real identity provider, so the IdP routes answer 200 like every other GET sample.
    const redirectUri = 'http://127.0.0.1:39998/v4/auth/idp/callback';
    idp = await startTestOidcProvider(redirectUri);
    demo = await createReferenceDemo({
      IDP_ISSUER_URL: idp.issuer,
      IDP_CLIENT_ID: idp.clientId,
      IDP_CLIENT_SECRET: idp.clientSecret,
      IDP_REDIRECT_URI: redirectUri,
    });
    doc = (await demo.h.request().get('/v4/openapi.json').expect(200).expect('content-type', /json/)).body as Doc;
    samples = await getSamples(demo, idp);
  });
  after(async () => {
    await demo?.close();
    await idp?.stop();
  });

  it('is OpenAPI 3.1 at version 1.0.1 with the x-api-key, jwt cookie and back-office schemes', function () {
    expect(doc.openapi).to.equal('3.1.0');
    expect(doc.info.version).to.equal('1.0.1');
    expect(doc.components.securitySchemes).to.deep.equal({
      apiKey: {
        type: 'apiKey',
        in: 'header',
        name: 'x-api-key',
        description: 'Developer API key (higher rate limits, gated routes)',
      },
      jwt: {
        type: 'apiKey',
        in: 'cookie',
        name: 'jwt',
        description:
          "Wallet session from POST /v4/auth/login (also accepted as Authorization: Bearer <jwt>). A POST, PUT, PATCH or DELETE carrying the cookie must come from this API's origin or one listed in CORS_ORIGINS (its Origin, else Sec-Fetch-Site), else 403 cross-site-request-refused",
      },
      backOffice: {
        type: 'http',
        scheme: 'bearer',
        description: 'Back-office credential in the authorization header (raw token or Bearer <token>)',
      },
    });
  });

  it('documents every layer of the createRoutes stacks (a route without describe() fails here)', function () {
    const { h } = demo;
    const routes = createRoutes({
      config: h.config,
      logger: createLogger({ level: 'silent', name: 'test' }),
      pg: h.apiPg,
      es: h.deps.es,
      rpc: h.deps.rpc,
    });
    const operations = routeOperations(routes);
    expect(operations.length).to.be.greaterThan(70);
    const missing = operations
      .filter((op) => !op.doc || !doc.paths[op.openApiPath]?.[op.method])
      .map((op) => `${op.method.toUpperCase()} ${op.path}`);
    expect(missing, 'routes without a documented operation').to.deep.equal([]);
  });

  it('passes the Redocly recommended lint rules without errors', async function () {
    this.timeout(60_000);
    const file = join(mkdtempSync(join(tmpdir(), 'openapi-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const run = await promisify(execFile)('npx', ['--no-install', 'redocly', 'lint', file, '--format=json'], {
      maxBuffer: 64 * 1024 * 1024,
    }).catch((e: { stdout: string }) => e);
    const problems = (JSON.parse(run.stdout) as { problems: { severity: string; ruleId: string; message: string }[] })
      .problems;
    expect(problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message}`)).to.deep.equal([]);
  });

  it('declares the guard of each protected route as its security requirement', function () {
    expect(doc.paths['/v4/auth/me']!['get']).to.have.deep.property('security', [{ jwt: [] }]);
    expect(doc.paths['/v4/developer/keys/{id}']!['delete']).to.have.deep.property('security', [{ jwt: [] }]);
    expect(doc.paths['/v4/api-keys/validate']!['get']).to.have.deep.property('security', [{ apiKey: [] }]);
    expect(doc.paths['/v4/campaign-lists']!['post']).to.have.deep.property('security', [{ jwt: [] }, { apiKey: [] }]);
  });

  it('has a seeded-demo request for every GET operation', function () {
    const gets = Object.entries(doc.paths)
      .filter(([, item]) => item['get'])
      .map(([path]) => path)
      .sort();
    expect(Object.keys(samples).sort()).to.deep.equal(gets);
  });

  it('answers every GET operation on the demo data with a body valid against its documented schema', async function () {
    this.timeout(120_000);
    const check = createResponseValidator(doc);
    const failures: string[] = [];
    for (const [openApiPath, sample] of Object.entries(samples)) {
      const res = await demo.h
        .request()
        .get(sample.path)
        .query(sample.query ?? {})
        .set(sample.headers ?? {});
      const contentType = String(res.headers['content-type']).split(';')[0]!;
      const body = contentType.includes('json') ? res.body : res.text;
      if (res.status !== 200)
        failures.push(`${openApiPath}: status ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      const result = check('get', openApiPath, res.status, contentType, body);
      if (!result.ok)
        failures.push(
          `${openApiPath}: ${result.documented ? JSON.stringify(result.errors?.slice(0, 3)) : `no ${contentType} schema for ${res.status}`}`,
        );
    }
    expect(failures).to.deep.equal([]);
  });

  it('documents problem bodies that match what errors look like (400 naming the field, 404)', async function () {
    const check = createResponseValidator(doc);
    const bad = await demo.h.request().get('/v4/opportunities').query({ items: 'many' }).expect(400);
    expect(bad.body.errors).to.deep.include({ field: 'items', message: 'must be integer' });
    expect(check('get', '/v4/opportunities', 400, 'application/problem+json', bad.body).ok).to.equal(true);
    const missing = await demo.h.request().get('/v4/tokens/999999999').expect(404);
    expect(check('get', '/v4/tokens/{id}', 404, 'application/problem+json', missing.body).ok).to.equal(true);
  });
});
