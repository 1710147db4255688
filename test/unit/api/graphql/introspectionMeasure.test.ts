import { expect } from 'chai';
import { getIntrospectionQuery, graphqlSync, parse, specifiedRules, type OperationDefinitionNode } from 'graphql';
import {
  DEFAULT_QUERY_LIMITS,
  measureDocument,
  queryLimitsRule,
  validateWithinLimits,
} from '../../../../api/graphql/limits.js';
import { createGraphqlSchema } from '../../../../api/graphql/schema.js';
import { responseFields } from '../../../helpers/responseFields.js';

const schema = createGraphqlSchema();

/** The query GraphiQL 3 and code generators send to learn the schema. */
const FULL_INTROSPECTION = getIntrospectionQuery({
  inputValueDeprecation: true,
  schemaDescription: true,
  specifiedByUrl: true,
  directiveIsRepeatable: true,
});
const TYPES = 'types { name kind fields { name type { name kind ofType { name kind } } args { name } } }';
const aliased = (n: number, body: string) =>
  `{ ${Array.from({ length: n }, (_, i) => `s${i}: __schema { ${body} }`).join(' ')} }`;

const measure = (query: string) => {
  const document = parse(query, { maxTokens: 100_000 });
  const operation = document.definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode;
  return measureDocument(schema, document, {}, DEFAULT_QUERY_LIMITS)(operation, schema.getQueryType()!);
};
const refusals = (query: string) =>
  validateWithinLimits(schema, parse(query, { maxTokens: 100_000 }), [
    queryLimitsRule(DEFAULT_QUERY_LIMITS),
    ...specifiedRules,
  ]).map((e) => ({ message: e.message, code: e.extensions['code'], ...e.extensions }));

describe('GraphQL introspection cost (api/graphql/introspectionMeasure.ts, issue #29 L3)', () => {
  it('prices an introspection query at the number of fields its response holds', () => {
    for (const query of [FULL_INTROSPECTION, `{ ${TYPES.replace('types', '__schema { types')} } }`]) {
      const answer = graphqlSync({ schema, source: query });
      expect(answer.errors).to.equal(undefined);
      expect(measure(query).cost).to.equal(responseFields(answer.data));
    }
    expect(measure('{ __type(name: "Campaign") { fields { name } } }').cost).to.equal(
      responseFields(graphqlSync({ schema, source: '{ __type(name: "Campaign") { fields { name } } }' }).data),
    );
    expect(measure('{ __type(name: "NoSuchType") { fields { name } } }').cost).to.equal(1);
  });

  it("lets GraphiQL's introspection query through: its type references' ofType chains are one level", () => {
    expect(refusals(FULL_INTROSPECTION)).to.deep.equal([]);
    expect(measure(FULL_INTROSPECTION).depth).to.be.at.most(DEFAULT_QUERY_LIMITS.maxDepth);
  });

  it('refuses 24 aliased __schema with the usual cost error, at the same cost written inline or through fragments', () => {
    const single = measure(aliased(1, TYPES)).cost;
    const inline = refusals(aliased(24, TYPES));
    const fragments = refusals(
      `${aliased(24, '...S')} fragment S on __Schema { types { ...T } } fragment T on __Type { ${TYPES.slice('types { '.length, -2)} }`,
    );
    expect(inline).to.deep.equal([
      {
        message: `Query cost ${24 * single} exceeds the limit of 25000`,
        code: 'QUERY_TOO_COSTLY',
        cost: 24 * single,
        maxCost: DEFAULT_QUERY_LIMITS.maxCost,
      },
    ]);
    expect(fragments).to.deep.equal(inline);
  });

  it('measures a wide selection on every type reference in milliseconds (a set is walked once per schema object)', () => {
    const wide = `{ __schema { types { fields { type { ${Array.from({ length: 300 }, (_, i) => `f${i}: fields { name }`).join(' ')} } } } } }`;
    measure(wide);
    let ms = Infinity;
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      expect(refusals(wide).map((e) => e.code)).to.deep.equal(['QUERY_TOO_COSTLY']);
      ms = Math.min(ms, performance.now() - started);
    }
    // A guard against walking the set once per reference (seconds to minutes), not a speed target: a
    // loaded 2-core CI machine took up to ~100 ms for the linear walk.
    expect(ms).to.be.below(1_000);
  });
});
