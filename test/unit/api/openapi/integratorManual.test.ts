import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'chai';
import { BODY_MEDIA_TYPES } from '../../../../api/openapi/requestBody.js';
import { entryProblem, STORE_TYPES } from '../../../../api/routes/key-value-stores/schema.js';
import { VALUE_EXAMPLES } from '../../../../api/routes/key-value-stores/valueFormats.js';
import type { OpenApiDocument } from '../../../../api/openapi/buildOpenApi.js';
import { servedDocument } from '../../../../scripts/generateClient.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Media = { schema: unknown; example?: unknown; examples?: Record<string, { value: unknown }> };
type Operation = {
  description?: string;
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
};

/** Every example of a media type object, named for messages. */
const examplesOf = (media: Media): [string, unknown][] => [
  ...(media.example !== undefined ? [['example', media.example] as [string, unknown]] : []),
  ...Object.entries(media.examples ?? {}).map(([name, e]) => [name, e.value] as [string, unknown]),
];

describe('the OpenAPI document as an integrator manual (issue #31, item 10)', function () {
  let doc: OpenApiDocument;
  let operations: [string, Operation][];
  let ajv: Ajv2020;

  before(async function () {
    this.timeout(60_000);
    doc = await servedDocument();
    operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(
        ([method, op]) => [`${method.toUpperCase()} ${path}`, op as unknown as Operation] as [string, Operation],
      ),
    );
    ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true }));
    ajv.addKeyword({ keyword: 'x-comma-list' });
    ajv.addSchema({ $id: 'doc', components: doc['components'] });
  });

  /** `schema` with the document's `#/components/...` references resolved against the document. */
  function validatorOf(schema: unknown) {
    const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
    return ajv.compile(rebased as object);
  }

  it('gives every operation a description of its own besides the generated access, paging and caching lines', function () {
    expect(operations.length).to.be.greaterThan(100);
    const bare = operations
      .filter(([, op]) => !op.description || op.description.startsWith('**Access:**'))
      .map(([name]) => name);
    expect(bare, 'operations without a description').to.deep.equal([]);
    const noAccess = operations.filter(([, op]) => !op.description?.includes('**Access:**')).map(([name]) => name);
    expect(noAccess, 'operations not saying who may call them').to.deep.equal([]);
  });

  it('gives every response and request body an example that validates against its own schema', function () {
    const failures: string[] = [];
    for (const [name, op] of operations) {
      const media: [string, Media][] = [
        ...Object.entries(op.responses).flatMap(([status, r]) =>
          Object.entries(r.content ?? {}).map(([type, m]) => [`${status} ${type}`, m] as [string, Media]),
        ),
        ...Object.entries(op.requestBody?.content ?? {}).map(([type, m]) => [`body ${type}`, m] as [string, Media]),
      ];
      for (const [where, m] of media) {
        const examples = examplesOf(m);
        if (!examples.length) failures.push(`${name} ${where}: no example`);
        const validate = validatorOf(m.schema);
        for (const [label, value] of examples)
          if (!validate(value))
            failures.push(`${name} ${where} ${label}: ${JSON.stringify(validate.errors?.slice(0, 2))}`);
      }
    }
    expect(failures).to.deep.equal([]);
  });

  it('documents every request body as JSON, URL-encoded form and multipart form, with the same schema', function () {
    const failures = operations
      .filter(([, op]) => op.requestBody)
      .flatMap(([name, op]) =>
        BODY_MEDIA_TYPES.filter((type) => !op.requestBody!.content[type]).map((type) => `${name}: no ${type}`),
      );
    expect(failures).to.deep.equal([]);
    expect(operations.filter(([, op]) => op.requestBody).length).to.be.greaterThan(20);
  });

  it('states the entry value format of every store type, with an example each that the store accepts', function () {
    const upsert = doc.paths['/v4/key-value-stores/{key}/entries']!['put'] as unknown as Operation;
    for (const type of STORE_TYPES) {
      expect(upsert.description).to.match(new RegExp(`\\*\\*${type}\\*\\*`));
      const example = upsert.requestBody!.content['application/json']!.examples![type]!.value as {
        address: string;
        value: string;
      };
      expect(entryProblem(type, example), type).to.equal(null);
      expect(JSON.parse(example.value)).to.deep.equal(VALUE_EXAMPLES[type]);
    }
    expect(upsert.description).to.include('`multiplier` (number, > 0, ≤ 100, required)');
  });

  it('lists the campaignsParams keys and the campaign data fields of each campaign type', function () {
    const body = (doc.paths['/v4/campaigns/generate-payload']!['post'] as unknown as Operation).requestBody!.content[
      'application/json'
    ]!.schema as { properties: { campaignsParams: { description: string } } };
    const text = body.properties.campaignsParams.description;
    expect(text).to.include('`ERC20`').and.include('`targetToken` (required)');
    expect(text).to.include('`CLAMM`').and.include('`pool` (required)');
    expect(text).to.include('`raw` (required)').and.include('`erc20-hold`');
  });

  it('shows a 400 example naming the exact field the validator names, in the Problem schema', function () {
    const problem = (doc.paths['/v4/key-value-stores/self']!['post'] as unknown as Operation).responses['400']!
      .content!['application/problem+json']!.example as { errors: { field: string; message: string }[]; code: string };
    expect(problem.code).to.equal('VALIDATION_FAILED');
    expect(problem.errors).to.deep.include({ field: 'key', message: 'is required' });
    const list = (doc.paths['/v4/opportunities']!['get'] as unknown as Operation).responses['400']!.content![
      'application/problem+json'
    ]!.example as { errors: { field: string }[] };
    expect(list.errors[0]!.field).to.not.equal('query');
  });
});
