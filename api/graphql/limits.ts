import { GraphQLError, Kind, type ASTVisitor, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext, getNamedType, isListType, getNullableType, type GraphQLField, type GraphQLObjectType, isObjectType } from 'graphql';

export type QueryLimits = { maxDepth: number; maxCost: number; defaultListSize: number };

/** Defaults: a page of 100 opportunities with their campaigns and each campaign's opportunity fits; one more level of lists does not. */
export const DEFAULT_QUERY_LIMITS: QueryLimits = { maxDepth: 8, maxCost: 25_000, defaultListSize: 20 };

/**
 * Validation rule bounding each operation (issue #8: one query cannot take the service down): its
 * selection depth, and its cost, where every field costs 1 and a list field multiplies the cost
 * below it by its `items` argument (or `defaultListSize`). Fragments are expanded.
 * Violations are errors with `extensions.code` QUERY_TOO_DEEP / QUERY_TOO_COSTLY.
 */
export function queryLimitsRule(limits: QueryLimits = DEFAULT_QUERY_LIMITS) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>(context.getDocument().definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
    const schema = context.getSchema();

    function measure(set: SelectionSetNode, parent: GraphQLObjectType | undefined, depth: number, seen: Set<string>): { depth: number; cost: number } {
      let maxDepth = depth;
      let cost = 0;
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) {
          const field = parent?.getFields()[selection.name.value];
          const child = selection.selectionSet ? measure(selection.selectionSet, objectTypeOf(field), depth + 1, seen) : { depth, cost: 0 };
          maxDepth = Math.max(maxDepth, child.depth);
          cost += 1 + child.cost * listSize(selection, field);
        } else {
          const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : selection;
          const key = selection.kind === Kind.FRAGMENT_SPREAD ? selection.name.value : '';
          if (!fragment || (key && seen.has(key))) continue; // unknown or cyclic fragments are reported by the standard rules
          const typeName = fragment.typeCondition?.name.value;
          const type = typeName ? schema.getType(typeName) : parent;
          const inner = measure(fragment.selectionSet, isObjectType(type) ? type : parent, depth, key ? new Set([...seen, key]) : seen);
          maxDepth = Math.max(maxDepth, inner.depth);
          cost += inner.cost;
        }
      }
      return { depth: maxDepth, cost };
    }

    function listSize(node: FieldNode, field: GraphQLField<unknown, unknown> | undefined): number {
      if (!field || !isListType(getNullableType(field.type))) return 1;
      const items = node.arguments?.find((a) => a.name.value === 'items')?.value;
      return items?.kind === Kind.INT ? Number(items.value) : limits.defaultListSize;
    }

    return {
      OperationDefinition(node) {
        const root = node.operation === 'query' ? schema.getQueryType() : node.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
        const { depth, cost } = measure(node.selectionSet, root ?? undefined, 1, new Set());
        if (depth > limits.maxDepth) context.reportError(new GraphQLError(`Query depth ${depth} exceeds the limit of ${limits.maxDepth}`, { nodes: [node], extensions: { code: 'QUERY_TOO_DEEP', depth, maxDepth: limits.maxDepth } }));
        if (cost > limits.maxCost) context.reportError(new GraphQLError(`Query cost ${cost} exceeds the limit of ${limits.maxCost}`, { nodes: [node], extensions: { code: 'QUERY_TOO_COSTLY', cost, maxCost: limits.maxCost } }));
      },
    };
  };
}

function objectTypeOf(field: GraphQLField<unknown, unknown> | undefined): GraphQLObjectType | undefined {
  const named = field ? getNamedType(field.type) : undefined;
  return isObjectType(named) ? named : undefined;
}
