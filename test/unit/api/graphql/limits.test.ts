import { expect } from 'chai';
import {
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
  parse,
  specifiedRules,
  type OperationDefinitionNode,
} from 'graphql';
import {
  DEFAULT_QUERY_LIMITS,
  measureDocument,
  queryLimitsRule,
  validateWithinLimits,
  type CostExtensions,
} from '../../../../api/graphql/limits.js';
import { createGraphqlSchema } from '../../../../api/graphql/schema.js';

const schema = createGraphqlSchema();
const bomb = (levels: number) =>
  `query { ...F0 } ${Array.from({ length: levels }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`).join(' ')} fragment F${levels} on Query { __typename }`;
type Refusal = { code: unknown } & Record<string, unknown>;
/** Validation of `query` with the limits; `ms` is the best of three runs (the machine may be loaded, the algorithm is what is measured). */
const check = (query: string, variables?: Record<string, unknown>) => {
  const document = parse(query, { maxTokens: 100_000 });
  let ms = Infinity;
  let errors: Refusal[] = [];
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    errors = validateWithinLimits(schema, document, [
      queryLimitsRule(DEFAULT_QUERY_LIMITS, variables),
      ...specifiedRules,
    ]).map((e) => ({ ...e.extensions, code: e.extensions['code'] }));
    ms = Math.min(ms, performance.now() - started);
  }
  return { ms, errors };
};

describe('GraphQL query limits (api/graphql/limits.ts)', () => {
  // Bounds that tell linear from exponential (2^30 or 2^1000 visits would not end), not speed targets: a
  // loaded 2-core CI machine is several times slower than a quiet one.
  it('measures nested fragments once each: 30 levels (2^30 fields) and 1,000 levels each in well under a second', () => {
    check(bomb(2));
    const thirty = check(bomb(30));
    expect(thirty.errors).to.deep.equal([
      { code: 'QUERY_TOO_COSTLY', cost: 2 ** 30, maxCost: DEFAULT_QUERY_LIMITS.maxCost },
    ]);
    expect(thirty.ms).to.be.below(1_000);
    const thousand = check(bomb(1000));
    expect(
      thousand.errors.map((e) => e.code),
      '2,000 spreads',
    ).to.deep.equal(['QUERY_TOO_LARGE']);
    expect(thousand.ms).to.be.below(1_000);
    // The measure itself, without the selection limit: 1,000 levels are 1,000 memoized fragments.
    const document = parse(bomb(1000));
    const started = performance.now();
    const measured = measureDocument(
      schema,
      document,
      {},
      DEFAULT_QUERY_LIMITS,
    )(document.definitions[0] as OperationDefinitionNode, schema.getQueryType()!);
    expect(measured.cost).to.equal(2 ** 1000);
    expect(performance.now() - started).to.be.below(1_000);
  });

  it("adds a fragment's depth where it is spread, and stops descending past the limit", () => {
    const deep = check(
      '{ ...A } fragment A on Query { campaigns(items: 1) { opportunity { ...B } } } fragment B on Opportunity { campaigns { opportunity { campaigns { opportunity { campaigns { opportunity { id } } } } } } }',
    );
    expect(deep.errors.filter((e) => e.code === 'QUERY_TOO_DEEP').map((e) => e['depth'])).to.deep.equal([9]);
    const nested = `{ ${Array.from({ length: 400 }, (_, i) => `c${i}: campaigns(items: 1) { o${i}: opportunity { `).join('')}id${' } }'.repeat(400)} }`;
    expect(check(nested).errors.map((e) => e.code)).to.include('QUERY_TOO_DEEP');
  });

  it('takes `items` from variables, else from the variable default, else 20', () => {
    const q = 'query ($n: Int = 100) { opportunities(items: $n) { campaigns { opportunity { campaigns { id } } } } }';
    const cost = (vars?: Record<string, unknown>) =>
      check(q, vars).errors.find((e) => e.code === 'QUERY_TOO_COSTLY')?.['cost'];
    // root field + 100 opportunities × (campaigns + 100 × (opportunity + 1 × (campaigns + 100 × id)))
    expect(cost({ n: 100 })).to.equal(1 + 100 * (1 + 100 * (1 + 1 * (1 + 100))));
    expect(cost()).to.equal(cost({ n: 100 }));
    expect(check('query ($n: Int) { opportunities(items: $n) { id } }', { n: 3 }).errors).to.deep.equal([]);
  });

  it('refuses past 1,000 written selections or 50 selections of one response name, before the other rules', () => {
    expect(
      check(`{ ${Array.from({ length: 1001 }, (_, i) => `a${i}: __typename`).join(' ')} }`).errors.map((e) => e.code),
    ).to.deep.equal(['QUERY_TOO_LARGE']);
    expect(check(`{ ${Array(51).fill('a: __typename').join(' ')} }`).errors).to.deep.equal([
      { code: 'QUERY_TOO_LARGE', responseName: 'a', selections: 51, maxSameResponseName: 50 },
    ]);
  });

  it('knows a bound for every list of objects: an `items` argument, a list argument or extensions.maxItems', () => {
    const unbounded: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields())) {
        if (!isListType(getNullableType(field.type)) || !isObjectType(getNamedType(field.type))) continue;
        const ext = field.extensions as CostExtensions;
        if (!field.args.some((a) => a.name === 'items') && !ext.itemsFromList && !ext.maxItems)
          unbounded.push(`${type.name}.${field.name}`);
      }
    }
    expect(unbounded).to.deep.equal([]);
  });

  it('counts each count, total and price field of #33 as a search of its own: ten fit in a request, eleven are refused', () => {
    const reads = [
      'campaignCounts(by: CHAINS, grain: "month") { month key count }',
      'distributedRewards(by: PROTOCOLS) { key usd }',
      'rewardsTotal(chainId: 1, token: "0x") { amount }',
      'rewardsCount(chainId: 1, token: "0x") { count }',
      'rewardsUnclaimed(chainId: 1, token: "0x") { amount }',
      'prices { symbol price }',
      'priceHistory(symbol: "X") { day close }',
    ];
    for (const read of reads) {
      const aliased = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${read}`).join(' ')} }`;
      expect(check(aliased(10)).errors, read).to.deep.equal([]);
      expect(check(aliased(11)).errors, read).to.deep.equal([
        { code: 'QUERY_TOO_COSTLY', searches: 11, maxSearches: DEFAULT_QUERY_LIMITS.maxSearches },
      ]);
    }
  });

  it('declares what every root field reads: searches of its own, or a batch loader (by-id cost)', () => {
    // `user` reads nothing itself; its `rewards` declares its searches per chain.
    const undeclared = Object.values(schema.getQueryType()!.getFields())
      .filter((f) => f.name !== 'user')
      .filter((f) => !(f.extensions as CostExtensions).searches && !(f.extensions as CostExtensions).cost)
      .map((f) => f.name);
    expect(undeclared).to.deep.equal([]);
  });
});
