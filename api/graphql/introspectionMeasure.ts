import {
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  defaultFieldResolver,
  getNamedType,
  isObjectType,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

/** Depth reached and fields resolved by one introspection selection (figures of limits.ts's Measure). */
export type IntrospectionMeasure = { depth: number; cost: number };

/**
 * The schema objects (types, fields, arguments, …) one selection set applies to, each with the number
 * of times it occurs in the response: the set is priced once per distinct object, not once per occurrence.
 */
type Bag = Map<unknown, number>;

export type CreateIntrospectionMeasureParams = {
  schema: GraphQLSchema;
  fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  /** The value of an argument node (variables and their defaults resolved), as the cost rule reads it. */
  valueOf: (node: ValueNode | undefined) => unknown;
  maxDepth: number;
};

/** Root fields answered from the schema itself rather than by our resolvers. */
const META_FIELDS: ReadonlyMap<string, GraphQLField<unknown, unknown>> = new Map([
  ['__schema', SchemaMetaFieldDef],
  ['__type', TypeMetaFieldDef],
]);

/** Whether `node` is `__schema` or `__type` (to be measured by createIntrospectionMeasure, not by declared bounds). */
export const isIntrospectionRoot = (node: FieldNode) => META_FIELDS.has(node.name.value);

/**
 * Measures `__schema` / `__type` selections by what they really resolve (issue #29 L3): the walk runs
 * graphql-js's own introspection resolvers on the schema, so each field costs 1 per occurrence in the
 * response and a list multiplies what is below it by its real length (the number of types, of a type's
 * fields, …). The same selection written inline or through fragments costs the same, and 24 aliased
 * `__schema` cost 24 times one. Work follows the document times the schema's size, not the response:
 * a selection set is walked once per distinct schema object (see Bag), a fragment once per bag.
 * Depth is the depth of the data reached, where a type reference's `ofType` chain (which ends at the
 * type's real wrappers) is one level: the standard introspection query of GraphiQL and code generators
 * fits. Descent stops one level past maxDepth, as in measureDocument.
 */
export function createIntrospectionMeasure({ schema, fragments, valueOf, maxDepth }: CreateIntrospectionMeasureParams) {
  const memo = new WeakMap<Bag, Map<string, IntrospectionMeasure>>();
  const inProgress = new Set<string>();

  function argsOf(node: FieldNode, field: GraphQLField<unknown, unknown>): Record<string, unknown> {
    const args: Record<string, unknown> = {};
    for (const arg of field.args) {
      const given = valueOf(node.arguments?.find((a) => a.name.value === arg.name)?.value);
      args[arg.name] = given ?? arg.defaultValue;
    }
    return args;
  }

  /** What `field` resolves to on each object of `bag`, list items spread, nulls left out. */
  function resolveAll(node: FieldNode, field: GraphQLField<unknown, unknown>, parentType: GraphQLObjectType, bag: Bag) {
    const args = argsOf(node, field);
    const info = { schema, parentType, fieldName: field.name } as unknown as GraphQLResolveInfo;
    const resolve = field.resolve ?? defaultFieldResolver;
    const values: Bag = new Map();
    const add = (value: unknown, times: number) => {
      if (value !== null && value !== undefined) values.set(value, (values.get(value) ?? 0) + times);
    };
    for (const [source, times] of bag) {
      const value = resolve(source, args, undefined, info);
      if (Array.isArray(value)) for (const item of value) add(item, times);
      else add(value, times);
    }
    return values;
  }

  /** One field on every object of `bag`: 1 per occurrence, plus its selection on what it resolves to. */
  function measureField(
    node: FieldNode,
    field: GraphQLField<unknown, unknown>,
    parentType: GraphQLObjectType,
    bag: Bag,
    occurrences: number,
    depth: number,
  ): IntrospectionMeasure {
    if (!node.selectionSet) return { depth, cost: occurrences };
    if (depth > maxDepth) return { depth: depth + 1, cost: occurrences };
    const values = resolveAll(node, field, parentType, bag);
    const type = getNamedType(field.type);
    if (!values.size || !isObjectType(type)) return { depth, cost: occurrences };
    // `ofType` unwraps one type reference (`[X!]!` is one value reached in up to three links), not a level of data.
    const inner = measureSet(node.selectionSet, type, values, field.name === 'ofType' ? depth : depth + 1);
    return { depth: Math.max(depth, inner.depth), cost: occurrences + inner.cost };
  }

  function measureSpread(name: string, type: GraphQLObjectType, bag: Bag, depth: number): IntrospectionMeasure {
    const known = memo.get(bag)?.get(name);
    if (known) return known;
    const fragment = fragments.get(name);
    // A cyclic or unknown spread, or one on another type, resolves nothing (validation reports the first two).
    if (!fragment || inProgress.has(name) || fragment.typeCondition.name.value !== type.name) return { depth, cost: 0 };
    inProgress.add(name);
    const result = measureSet(fragment.selectionSet, type, bag, depth);
    inProgress.delete(name);
    if (!memo.has(bag)) memo.set(bag, new Map());
    memo.get(bag)!.set(name, result);
    return result;
  }

  function measureSet(set: SelectionSetNode, type: GraphQLObjectType, bag: Bag, depth: number): IntrospectionMeasure {
    let occurrences = 0;
    for (const times of bag.values()) occurrences += times;
    let maxDepthReached = depth;
    let cost = 0;
    for (const selection of set.selections) {
      let measure: IntrospectionMeasure;
      if (selection.kind === Kind.FIELD) {
        const field = type.getFields()[selection.name.value];
        // __typename and unknown fields (reported by validation) are leaves.
        measure = field ? measureField(selection, field, type, bag, occurrences, depth) : { depth, cost: occurrences };
      } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
        measure = measureSpread(selection.name.value, type, bag, depth);
      } else {
        const condition = selection.typeCondition?.name.value;
        // Introspection types are object types: an inline fragment applies only on its own type.
        measure =
          condition && condition !== type.name
            ? { depth, cost: 0 }
            : measureSet(selection.selectionSet, type, bag, depth);
      }
      maxDepthReached = Math.max(maxDepthReached, measure.depth);
      cost += measure.cost;
    }
    return { depth: maxDepthReached, cost };
  }

  /**
   * Measures a root `__schema` or `__type` field at `depth` (its place in the operation).
   * @returns its depth and cost, on the same scale as measureDocument's.
   */
  return (node: FieldNode, parentType: GraphQLObjectType, depth: number): IntrospectionMeasure => {
    const field = META_FIELDS.get(node.name.value)!;
    return measureField(node, field, parentType, new Map([[undefined, 1]]), 1, depth);
  };
}
