import { expect } from 'chai';
import { routeOperations, type RouteOperation } from '../../../api/openapi/routeLayers.js';
import { createRoutes } from '../../../api/routes/index.js';
import { ajv, toFieldErrors } from '../../../api/validate.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';

type Property = { type?: unknown; items?: Property; pattern?: string };
type Problem = { status: number; errors?: { field: string; message: string }[] };

const BAD_NUMBERS = ['Infinity', '-Infinity', 'NaN', '1e400', String(2 ** 53 + 1)];

const propertiesOf = (schema: unknown) =>
  (schema as { properties?: Record<string, Property> } | undefined)?.properties ?? {};
const isNumeric = (p: Property) => p.type === 'integer' || p.type === 'number';
/** A concrete path for a route template (`:id` → `x`): a bad path value is one more named field, never a reason to skip. */
const concretePath = (op: RouteOperation) => op.path.replace(/:[A-Za-z0-9_]+/g, 'x');
/** Operations whose guards the back-office token passes (or that have none). */
const reachable = (op: RouteOperation) => !op.security || op.security.some((s) => 'backOffice' in s);

describe('bad input on every route is a 400 naming the field (issue 16)', function () {
  let h: Harness;
  let operations: RouteOperation[];

  const send = (op: RouteOperation, path = concretePath(op)) =>
    (h.request() as unknown as Record<string, (path: string) => ReturnType<ReturnType<Harness['request']>['get']>>)[
      op.method
    ]!(path).set('authorization', TEST_BACK_OFFICE_TOKEN);
  const expectNamed = (res: { status: number; body: Problem; text: string }, field: string, label: string) => {
    expect(res.status, `${label}: ${res.text.slice(0, 300)}`).to.equal(400);
    expect(
      res.body.errors?.map((e) => e.field),
      `${label}: ${res.text.slice(0, 300)}`,
    ).to.include(field);
  };

  before(async function () {
    this.timeout(300_000);
    h = await createHarness({ chainIds: [31337] });
    operations = routeOperations(
      createRoutes({
        config: h.config,
        logger: h.deps.logger,
        pg: h.apiPg,
        es: h.deps.es,
        rpc: h.deps.rpc,
        jobsPg: h.deps.pg,
      }),
    ).filter((op) => !op.path.endsWith('/') || op.path === '/');
  });
  after(async () => h?.close());

  it('refuses Infinity, -Infinity, NaN, 1e400 and 2^53 + 1 in every numeric query parameter of every route (page, items, chainId…)', async function () {
    let requests = 0;
    const paged: string[] = [];
    for (const op of operations.filter(reachable)) {
      for (const [name, property] of Object.entries(propertiesOf(op.schemas.query))) {
        if (!isNumeric(property) && !(property.type === 'array' && property.items && isNumeric(property.items)))
          continue;
        if (name === 'page' || name === 'items') paged.push(`${op.method.toUpperCase()} ${op.path}`);
        for (const value of BAD_NUMBERS) {
          const res = await send(op).query({ [name]: value });
          requests++;
          expectNamed(res, name, `${op.method.toUpperCase()} ${op.path}?${name}=${value}`);
        }
      }
    }
    expect(new Set(paged).size, 'paged routes covered').to.be.greaterThan(15);
    expect(requests).to.be.greaterThan(150);
  });

  it('explains a bad path parameter in words, never as a regular expression, on every route (issue 31)', async function () {
    const BAD = 'not valid!';
    const leaks = (message: string) => /[\^$\\[\]{}|]|pattern/.test(message);
    let checked = 0;
    let requests = 0;
    for (const op of operations) {
      for (const [name, property] of Object.entries(propertiesOf(op.schemas.params))) {
        if (!property.pattern) continue;
        const label = `${op.method.toUpperCase()} ${op.path} ${name}=${BAD}`;
        // Every route, guarded or not: the message the schema gives.
        const validateParams = ajv.compile(op.schemas.params!);
        expect(validateParams({ ...Object.fromEntries(op.paramNames.map((p) => [p, 'x'])), [name]: BAD })).to.equal(
          false,
        );
        const messages = toFieldErrors(validateParams.errors, 'params')
          .filter((e) => e.field === name)
          .map((e) => e.message);
        expect(messages, label).to.have.length(1);
        expect(leaks(messages[0]!), `${label}: ${messages[0]}`).to.equal(false);
        expect(messages[0], label).to.match(/^must be /);
        checked++;
        // Routes the back-office token reaches: the same through HTTP, in the problem's detail too.
        if (!reachable(op)) continue;
        const res = await send(
          op,
          op.path.replace(/:([A-Za-z0-9_]+)/g, (_, p) => (p === name ? encodeURIComponent(BAD) : 'x')),
        );
        requests++;
        expectNamed(res, name, label);
        const error = (res.body as Problem).errors!.find((e) => e.field === name)!;
        expect(leaks(error.message), `${label}: ${error.message}`).to.equal(false);
        expect(leaks((res.body as { detail: string }).detail), label).to.equal(false);
      }
    }
    expect(checked, 'path parameters with a pattern').to.be.greaterThan(15);
    expect(requests).to.be.greaterThan(10);
  });

  it('refuses the same numbers in every numeric field of every body, form-encoded and as JSON (1e400, 2^53 + 1)', async function () {
    let requests = 0;
    for (const op of operations.filter((o) => o.schemas.body && reachable(o))) {
      for (const [name, property] of Object.entries(propertiesOf(op.schemas.body))) {
        if (!isNumeric(property)) continue;
        for (const value of BAD_NUMBERS) {
          const form = await send(op)
            .type('form')
            .send(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
          expectNamed(form, name, `${op.method.toUpperCase()} ${op.path} form ${name}=${value}`);
          requests++;
        }
        for (const raw of ['1e400', '-1e400', String(2 ** 53 + 1)]) {
          const json = await send(op)
            .type('json')
            .send(`{${JSON.stringify(name)}:${raw}}`);
          expectNamed(json, name, `${op.method.toUpperCase()} ${op.path} JSON ${name}:${raw}`);
          requests++;
        }
      }
    }
    expect(requests).to.be.greaterThan(10);
  });

  it('refuses a JSON body nested 3,000 deep on every body route with a 400, never a stack overflow', async function () {
    const deep = `{"x":${'['.repeat(3000)}${']'.repeat(3000)}}`;
    expect(deep.length).to.be.below(64 * 1024);
    let routes = 0;
    for (const op of operations.filter((o) => o.schemas.body)) {
      const res = await send(op).type('json').send(deep);
      routes++;
      expectNamed(res, 'x', `${op.method.toUpperCase()} ${op.path}`);
    }
    expect(routes).to.be.greaterThan(10);
  });

  it('keeps the types of JSON bodies: no boolean, null or number becomes a string or a number, no scalar becomes a list', async function () {
    const wrong = (p: Property): unknown[] =>
      p.type === 'string'
        ? [false, 12]
        : p.type === 'boolean'
          ? [1, 0]
          : isNumeric(p)
            ? [true, null]
            : p.type === 'array'
              ? [typeof p.items?.type === 'string' && p.items.type === 'string' ? 'scalar' : 1]
              : [];
    let checked = 0;
    for (const op of operations.filter((o) => o.schemas.body && reachable(o))) {
      for (const [name, property] of Object.entries(propertiesOf(op.schemas.body))) {
        for (const value of wrong(property)) {
          const res = await send(op)
            .type('json')
            .send(JSON.stringify({ [name]: value }));
          expectNamed(res, name, `${op.method.toUpperCase()} ${op.path} JSON ${name}: ${JSON.stringify(value)}`);
          checked++;
        }
      }
    }
    expect(checked).to.be.greaterThan(30);
    // Strings still convert where a number or boolean is wanted (form and JSON alike).
    const store = await h.request().post('/v4/config/store').type('json').send('{"value":"\\ud800"}');
    expectNamed(store, 'value', 'lone surrogate in /v4/config/store');
  });

  it('refuses a number past the campaign type range in REST and GraphQL; 404s a long asset name; 400s an oversized login signature', async function () {
    const rest = await h.request().get('/v4/campaigns').query({ type: '99999999999999999999999' });
    expectNamed(rest, 'type', '/v4/campaigns?type=99999999999999999999999');
    const gql = await h
      .request()
      .post('/graphql/v1')
      .set('accept', 'application/graphql-response+json')
      .send({ query: '{ campaigns(filter: { type: "99999999999999999999999" }) { id } }' });
    const error = JSON.parse(gql.text).errors[0];
    expect(error.extensions.code, gql.text).to.equal('BAD_USER_INPUT');
    expect(error.extensions.errors.map((e: { field: string }) => e.field)).to.include('type');
    const variable = await h
      .request()
      .post('/graphql/v1')
      .set('accept', 'application/graphql-response+json')
      .type('json')
      .send(
        '{"query":"query ($c: [Int!]) { campaigns(filter: { distributionChainIds: $c }) { id } }","variables":{"c":[1e400]}}',
      );
    expect(variable.status, variable.text).to.equal(400);
    await h
      .request()
      .get(`/assets/${'a'.repeat(300)}.js`)
      .expect(404);
    const login = await h
      .request()
      .post('/v4/auth/login')
      .send({ address: `0x${'1'.repeat(40)}`, message: 'hello', signature: `0x${'ab'.repeat(40_000)}` });
    expectNamed(login, 'signature', 'login with an 80 KB signature');
  });

  it('answers TRACE with 405 and Allow, and OPTIONS on a static path without the methods of a parameterized sibling', async function () {
    const trace = await h.request().trace('/v4/chains');
    expect(trace.status).to.equal(405);
    expect(trace.headers['allow']).to.equal('HEAD, GET');
    const options = await h.request().options('/v4/developer/keys/usage');
    expect(options.status).to.equal(200);
    expect(options.headers['allow']!.split(', ').sort()).to.deep.equal(['GET', 'HEAD']);
    const sibling = await h.request().options('/v4/developer/keys/abc');
    expect(sibling.headers['allow']!.split(', ').sort()).to.include.members(['PATCH', 'DELETE']);
  });

  it('sends X-Content-Type-Options: nosniff on every response, and a CSP forbidding framing on /docs and GraphiQL', async function () {
    const responses = await Promise.all([
      h.request().get('/v4/chains'),
      h.request().get('/v4/nowhere'),
      h.request().get('/v4/campaigns').query({ items: 'Infinity' }),
      h.request().trace('/v4/chains'),
      h.request().options('/v4/chains'),
      h.request().get('/metrics'),
      h.request().get('/docs'),
      h.request().post('/graphql/v1').send({ query: '{ __typename }' }),
      h.request().get('/graphql/v1').set('accept', 'text/html'),
      h.request().post('/v4/config/store').type('json').send('{"value":'),
      h.request().get('/openapi.json'),
    ]);
    responses.forEach((res, i) =>
      expect(res.headers['x-content-type-options'], `response ${i} (${res.status})`).to.equal('nosniff'),
    );
    for (const i of [6, 8]) {
      expect(responses[i]!.status).to.equal(200);
      expect(responses[i]!.headers['content-security-policy'], `response ${i}`).to.match(/frame-ancestors 'none'/);
    }
  });
});
