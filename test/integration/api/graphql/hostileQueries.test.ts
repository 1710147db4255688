import { expect } from 'chai';
import { getIntrospectionQuery } from 'graphql';
import supertest from 'supertest';
import { eventually } from '../../../helpers/eventually.js';
import { createHarness, type Harness } from '../../../helpers/harness.js';
import { seedCampaigns } from '../../../helpers/seedCampaigns.js';
import { responseFields } from '../../../helpers/responseFields.js';

type GqlBody = {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
};

/** The API's own time for a response, from `Server-Timing: app;dur=<ms>`. */
export function serverTimeMs(res: { headers: Record<string, string> }): number {
  const match = /app;dur=([\d.]+)/.exec(res.headers['server-timing'] ?? '');
  if (!match) throw new Error(`no Server-Timing in ${JSON.stringify(res.headers)}`);
  return Number(match[1]);
}

/** Body limit of api/middleware/bodyParser.ts. */
const BODY_LIMIT = 64 * 1024;

/** `query { ...F0 } fragment F0 on Query { ...F1 ...F1 } … fragment F<levels> on Query { __typename }`: 2^levels fields once expanded. */
function fragmentBomb(levels: number): string {
  const fragments = Array.from({ length: levels }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`);
  return `query { ...F0 } ${fragments.join(' ')} fragment F${levels} on Query { __typename }`;
}

/** As many aliased `opportunity(id:…)` fields as fit in a JSON body just under the body limit. */
function aliasBomb(): string {
  const parts: string[] = [];
  let size = JSON.stringify({ query: '{}' }).length;
  for (let i = 0; ; i++) {
    const part = `a${i}:opportunity(id:"${i}"){id} `;
    const encoded = JSON.stringify(part).length - 2;
    if (size + encoded > BODY_LIMIT - 16) break;
    parts.push(part);
    size += encoded;
  }
  return `{${parts.join('')}}`;
}

describe('/graphql/v1 under hostile documents (issue 16)', function () {
  let h: Harness;
  let esRequests = 0;

  const post = (body: unknown, type = 'application/json') =>
    h
      .request()
      .post('/graphql/v1')
      .set('accept', 'application/graphql-response+json')
      .set('content-type', type)
      .send(typeof body === 'string' ? body : JSON.stringify(body));
  const gql = async (query: string, variables?: Record<string, unknown>) => {
    const res = await post({ query, ...(variables ? { variables } : {}) });
    return { status: res.status, ms: serverTimeMs(res), ...(JSON.parse(res.text) as GqlBody) };
  };
  const codes = (body: GqlBody) => (body.errors ?? []).map((e) => e.extensions?.['code']);

  before(async function () {
    this.timeout(300_000);
    h = await createHarness({ chainIds: [31337] });
    await seedCampaigns({ chain: h.chains[0]!, perTx: 3, txs: 2 });
    for (const job of ['blocks', 'campaigns', 'publish']) expect((await h.runJob(job)).status, job).to.equal('success');
    await h.refresh();
    h.deps.es.diagnostic.on('request', () => void esRequests++);
  });
  after(async () => h?.close());

  it('refuses a fragment bomb of 30 levels and an alias bomb at the body limit in under 100 ms of server time, while /v4/chains keeps answering', async function () {
    // Warm-up: the first requests compile the parser's and the rule's code paths.
    for (let i = 0; i < 3; i++)
      await Promise.all([
        gql(fragmentBomb(3)),
        gql(`{ ${Array.from({ length: 600 }, (_, j) => `a${j}: __typename`).join(' ')} }`),
      ]);
    const alias = aliasBomb();
    expect(JSON.stringify({ query: alias }).length).to.be.within(BODY_LIMIT - 200, BODY_LIMIT);
    let stop = false;
    const chainTimes: number[] = [];
    const chains = (async () => {
      while (!stop) {
        const started = Date.now();
        await h.request().get('/v4/chains').expect(200);
        chainTimes.push(Date.now() - started);
      }
    })();
    // Best of three each: on a loaded machine one attempt may wait for the CPU; the time refused is what is measured.
    const bestOf3 = async (query: string) => {
      const answers = [await gql(query), await gql(query), await gql(query)];
      return answers.reduce((best, a) => (a.ms < best.ms ? a : best));
    };
    const fragments = await bestOf3(fragmentBomb(30));
    const aliases = await bestOf3(alias);
    const measured = chainTimes.length;
    await eventually(() => chainTimes.length >= measured + 3, { what: 'a few more /v4/chains answers' });
    stop = true;
    await chains;
    expect(fragments.status).to.equal(400);
    expect(codes(fragments)).to.deep.equal(['QUERY_TOO_COSTLY']);
    expect(fragments.errors![0]!.extensions!['cost']).to.equal(2 ** 30);
    expect(fragments.ms, 'fragment bomb server time').to.be.below(100);
    expect(aliases.status).to.equal(400);
    expect(codes(aliases)).to.deep.equal(['QUERY_TOO_LARGE']);
    expect(aliases.ms, 'alias bomb server time').to.be.below(100);
    expect(chainTimes.length, '/v4/chains answered during the bombs').to.be.greaterThan(0);
    expect(Math.max(...chainTimes), 'slowest /v4/chains during the bombs (ms)').to.be.below(2000);
  });

  it('refuses one response name repeated past its limit before the quadratic overlap rule runs', async function () {
    const res = await gql(`{ ${Array(600).fill('a: __typename').join(' ')} }`);
    expect(res.status).to.equal(400);
    expect(codes(res)).to.deep.equal(['QUERY_TOO_LARGE']);
    expect(res.ms).to.be.below(100);
  });

  it('costs `items` from variables and their defaults as from literals', async function () {
    const nested = '{ campaigns { opportunity { campaigns { id } } } }';
    const literal = await gql(`{ opportunities(items: 100) ${nested} }`);
    expect(codes(literal)).to.deep.equal(['QUERY_TOO_COSTLY']);
    const variable = await gql(`query ($n: Int) { opportunities(items: $n) ${nested} }`, { n: 100 });
    expect(codes(variable)).to.deep.equal(['QUERY_TOO_COSTLY']);
    expect(variable.errors![0]!.extensions!['cost']).to.equal(literal.errors![0]!.extensions!['cost']);
    const defaulted = await gql(`query ($n: Int = 100) { opportunities(items: $n) ${nested} }`);
    expect(defaulted.errors![0]!.extensions!['cost']).to.equal(literal.errors![0]!.extensions!['cost']);
    const small = await gql('query ($n: Int) { opportunities(items: $n) { id campaigns { id } } }', { n: 2 });
    expect(small.errors).to.equal(undefined);
  });

  it('costs list fields without `items` at their real maximum (100 campaigns per opportunity, not 20)', async function () {
    // 20 opportunities × 100 campaigns × (opportunity → 100 campaigns): past 25,000; at 20 per list it was 8,820 and ran.
    const res = await gql('{ opportunities { campaigns { opportunity { campaigns { id } } } } }');
    expect(codes(res)).to.deep.equal(['QUERY_TOO_COSTLY']);
    expect(res.errors![0]!.extensions!['cost']).to.be.greaterThan(25_000);
  });

  it('counts every alias and reads by-id fields through the batch loaders (one search per level)', async function () {
    const [opportunity] = (await h.request().get('/v4/opportunities').expect(200)).body as { id: string }[];
    const [campaign] = (await h.request().get('/v4/campaigns').expect(200)).body as { id: string }[];
    const before = esRequests;
    const aliases = Array.from(
      { length: 200 },
      (_, i) =>
        `o${i}: opportunity(id: "${i % 2 ? opportunity!.id : `${i}`}") { id } c${i}: campaign(id: "${i % 2 ? campaign!.id : `${i}`}") { id }`,
    );
    const res = await gql(`{ ${aliases.join(' ')} }`);
    expect(res.errors).to.equal(undefined);
    expect(res.data!['o1']).to.deep.equal({ id: opportunity!.id });
    expect(res.data!['o2']).to.equal(null);
    expect(res.data!['c1']).to.deep.equal({ id: campaign!.id });
    expect(res.data!['c2']).to.equal(null);
    expect(esRequests - before, 'searches for 400 aliased by-id fields').to.be.at.most(2);
    const searches = await gql(
      `{ ${Array.from({ length: 11 }, (_, i) => `p${i}: campaigns(items: 1) { id }`).join(' ')} }`,
    );
    expect(codes(searches)).to.deep.equal(['QUERY_TOO_COSTLY']);
    expect(searches.errors![0]!.extensions!['searches']).to.equal(11);
  });

  it('prices introspection by what it resolves: 24 aliased __schema are refused for cost, inline or through fragments, and the explorer still learns the schema (#29 L3)', async function () {
    const fields =
      'name kind description fields { name description type { name kind ofType { name kind } } args { name } }';
    const aliases = (body: string) =>
      `{ ${Array.from({ length: 24 }, (_, i) => `s${i}: __schema { ${body} }`).join(' ')} }`;
    const inline = await gql(aliases(`types { ${fields} }`));
    const fragments = await gql(
      `${aliases('...S')} fragment S on __Schema { types { ...T } } fragment T on __Type { ${fields} }`,
    );
    for (const refused of [inline, fragments]) {
      expect(refused.status).to.equal(400);
      expect(codes(refused)).to.deep.equal(['QUERY_TOO_COSTLY']);
    }
    expect(fragments.errors![0]!.extensions!['cost']).to.equal(inline.errors![0]!.extensions!['cost']);
    const one = await gql(`{ __schema { types { ${fields} } } }`);
    expect(one.status).to.equal(200);
    // Each alias costs the fields its answer holds.
    expect(inline.errors![0]!.extensions!['cost']).to.equal(24 * responseFields(one.data));
    const explorer = await gql(getIntrospectionQuery({ inputValueDeprecation: true, schemaDescription: true }));
    expect(explorer.errors).to.equal(undefined);
    expect(explorer.status).to.equal(200);
  });

  it('answers transport errors with their real message and code, a form body with a problem', async function () {
    const cases: [string, string, string][] = [
      ['[1]', 'body', 'The body must be a JSON object with a `query` string'],
      ['{"query":"{ __typename }","variables":"abc"}', 'variables', 'variables must be a JSON object'],
      ['{"query":123}', 'query', 'query must be a string'],
      ['', 'query', 'query is required'],
      ['{"query":"{ __typename }","operationName":7}', 'operationName', 'operationName must be a string'],
    ];
    for (const [body, field, message] of cases) {
      const res = await post(body);
      expect(res.status, body).to.equal(400);
      expect(JSON.parse(res.text), body).to.deep.equal({
        errors: [{ message, extensions: { code: 'BAD_REQUEST', field } }],
      });
    }
    const form = await post('query=%7B__typename%7D', 'application/x-www-form-urlencoded');
    expect(form.status).to.equal(415);
    expect(form.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(form.body).to.include({ code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 });
    expect(form.body.errors).to.deep.equal([{ field: 'content-type', message: 'must be application/json' }]);
  });

  it('serves introspection and GraphiQL (with a CSP forbidding framing) only when GRAPHQL_EXPLORER is on', async function () {
    expect(h.config.graphqlExplorer, 'on outside production').to.equal(true);
    const on = await gql('{ __schema { queryType { name } } }');
    expect(on.data).to.deep.equal({ __schema: { queryType: { name: 'Query' } } });
    const page = await h.request().get('/graphql/v1').set('accept', 'text/html').expect(200);
    expect(page.headers['content-security-policy']).to.include("frame-ancestors 'none'");

    const off = h.createApp({
      config: { ...h.config, graphqlExplorer: false },
    });
    const request = () => supertest(off.callback());
    const refused = await request()
      .post('/graphql/v1')
      .set('accept', 'application/graphql-response+json')
      .send({ query: '{ __schema { queryType { name } } }' });
    expect(refused.status).to.equal(400);
    expect(refused.body.errors[0].extensions.code).to.equal('GRAPHQL_VALIDATION_FAILED');
    expect(refused.body.errors[0].message).to.match(/introspection/i);
    await request().get('/graphql/v1').set('accept', 'text/html').expect(404);
    await request().get('/graphql/v1/assets/graphiql.min.js').expect(404);
    const query = await request()
      .post('/graphql/v1')
      .set('accept', 'application/graphql-response+json')
      .send({ query: '{ opportunities(items: 1) { id } }' })
      .expect(200);
    expect(query.body.data.opportunities).to.have.length(1);
  });
});
