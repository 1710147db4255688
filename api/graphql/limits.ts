import {
  GraphQLError,
  Kind,
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
  validate as graphqlValidate,
  type ASTVisitor,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
  type ValueNode,
} from 'graphql';
import { createIntrospectionMeasure, isIntrospectionRoot } from './introspectionMeasure.js';

export type QueryLimits = {
  maxDepth: number;
  maxCost: number;
  /** Searches a request may start on its own (fields with `extensions.searches`, times how often they resolve). */
  maxSearches: number;
  /** Field selections and fragment spreads written in the document (aliases included), before fragments are expanded. */
  maxSelections: number;
  /**
   * Selections of one response name (alias or field name) merged into one selection set (its inline
   * and spread fragments included): graphql-js's OverlappingFieldsCanBeMerged compares them pairwise.
   */
  maxSameResponseName: number;
};

/** Defaults: a page of 100 opportunities with their campaigns fits; one more level of lists does not. */
export const DEFAULT_QUERY_LIMITS: QueryLimits = {
  maxDepth: 8,
  maxCost: 25_000,
  maxSearches: 10,
  maxSelections: 1_000,
  maxSameResponseName: 50,
};

/**
 * What the cost rule reads from a field's `extensions` (set in types.ts / schema.ts):
 * - `maxItems`: the most items a list field without an `items` argument can return (enforced by its resolver);
 * - `itemsFromList`: the list argument whose length is the number of items (one per value asked);
 * - `defaultItems`: items when the `items` argument is absent (the REST default);
 * - `maxListItems`: items when `items` is not a usable number (the REST maximum);
 * - `cost`: what one resolution costs beyond 1 (e.g. a by-id read, batched per level but not free);
 * - `searches`: searches one resolution starts itself (not batched); `searchesPerItem`: the same, per item of a list.
 */
export type CostExtensions = {
  maxItems?: number;
  itemsFromList?: string;
  defaultItems?: number;
  maxListItems?: number;
  cost?: number;
  searches?: number;
  searchesPerItem?: number;
};

type Measure = { depth: number; cost: number; searches: number };
const ZERO: Measure = { depth: 0, cost: 0, searches: 0 };

/**
 * Depth, cost and searches of every operation of `document`, in time linear in the document: each
 * fragment is measured once (per-instance figures, memoized by name) and a spread multiplies the
 * memo by how often it resolves. Every field costs 1 (plus `extensions.cost`), a list field
 * multiplies what is below it by its number of items: its `items` argument (literal, variable or
 * the variable's default), else its real maximum (see CostExtensions). Recursion stops one level
 * past maxDepth (such a document is refused whatever lies below), so a deep document cannot
 * exhaust the stack. Unknown fields and cyclic fragments count as nothing: the standard rules report them.
 * `__schema` and `__type` are measured by what they resolve on this schema (createIntrospectionMeasure).
 */
export function measureDocument(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | null | undefined,
  limits: QueryLimits,
) {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const memo = new Map<string, Measure>();
  const inProgress = new Set<string>();
  let defaults = new Map<string, ValueNode>();

  function measureFragment(name: string): Measure {
    const known = memo.get(name);
    if (known) return known;
    const fragment = fragments.get(name);
    if (!fragment || inProgress.has(name)) return ZERO;
    inProgress.add(name);
    const type = schema.getType(fragment.typeCondition.name.value);
    // Measured from depth 0: a spread adds the fragment's own depth to where it is spread.
    const result = measureSet(fragment.selectionSet, isObjectType(type) ? type : undefined, 0);
    inProgress.delete(name);
    memo.set(name, result);
    return result;
  }

  function measureSet(set: SelectionSetNode, parent: GraphQLObjectType | undefined, depth: number): Measure {
    let maxDepth = depth;
    let cost = 0;
    let searches = 0;
    for (const selection of set.selections) {
      if (
        selection.kind === Kind.FIELD &&
        parent &&
        parent === schema.getQueryType() &&
        isIntrospectionRoot(selection)
      ) {
        const inner = introspection(selection, parent, depth);
        maxDepth = Math.max(maxDepth, inner.depth);
        cost += inner.cost;
      } else if (selection.kind === Kind.FIELD) {
        const field = parent?.getFields()[selection.name.value];
        const ext = (field?.extensions ?? {}) as CostExtensions;
        let child = { ...ZERO, depth };
        if (selection.selectionSet && depth <= limits.maxDepth)
          child = measureSet(selection.selectionSet, objectTypeOf(field), depth + 1);
        else if (selection.selectionSet) child = { ...ZERO, depth: depth + 1 };
        const items = listSize(selection, field, ext);
        maxDepth = Math.max(maxDepth, child.depth);
        cost += 1 + (ext.cost ?? 0) + child.cost * items;
        searches += (ext.searches ?? 0) + ((ext.searchesPerItem ?? 0) + child.searches) * items;
      } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const inner = measureFragment(selection.name.value);
        maxDepth = Math.max(maxDepth, depth + inner.depth);
        cost += inner.cost;
        searches += inner.searches;
      } else {
        const typeName = selection.typeCondition?.name.value;
        const type = typeName ? schema.getType(typeName) : parent;
        const inner = measureSet(selection.selectionSet, isObjectType(type) ? type : parent, depth);
        maxDepth = Math.max(maxDepth, inner.depth);
        cost += inner.cost;
        searches += inner.searches;
      }
    }
    return { depth: maxDepth, cost, searches };
  }

  function valueOf(node: ValueNode | undefined): unknown {
    if (!node) return undefined;
    if (node.kind === Kind.VARIABLE) {
      const given = variables?.[node.name.value];
      return given !== undefined && given !== null ? given : valueOf(defaults.get(node.name.value));
    }
    if (node.kind === Kind.INT || node.kind === Kind.FLOAT) return Number(node.value);
    if (node.kind === Kind.LIST) return node.values.map(valueOf);
    if (node.kind === Kind.NULL) return null;
    return 'value' in node ? node.value : undefined;
  }

  const introspection = createIntrospectionMeasure({ schema, fragments, valueOf, maxDepth: limits.maxDepth });

  function listSize(node: FieldNode, field: GraphQLField<unknown, unknown> | undefined, ext: CostExtensions): number {
    if (!field || !isListType(getNullableType(field.type))) return 1;
    if (field.args.some((a) => a.name === 'items')) {
      const value = valueOf(node.arguments?.find((a) => a.name.value === 'items')?.value);
      if (value === undefined || value === null) return ext.defaultItems ?? ext.maxListItems ?? UNBOUNDED;
      const n = typeof value === 'number' ? value : Number(value);
      return Number.isFinite(n) && n >= 0 ? Math.ceil(n) : (ext.maxListItems ?? UNBOUNDED);
    }
    if (ext.itemsFromList) {
      const value = valueOf(node.arguments?.find((a) => a.name.value === ext.itemsFromList)?.value);
      return Array.isArray(value) ? value.length : 1;
    }
    return ext.maxItems ?? UNBOUNDED;
  }

  return (operation: OperationDefinitionNode, root: GraphQLObjectType | undefined): Measure => {
    defaults = new Map(
      operation.variableDefinitions?.flatMap((v) =>
        v.defaultValue ? [[v.variable.name.value, v.defaultValue] as const] : [],
      ) ?? [],
    );
    return measureSet(operation.selectionSet, root, 1);
  };
}

/** A list field that declares no bound: costed as if it returned this many items. */
const UNBOUNDED = 10_000;

/** Thrown to stop counting once past the limit (merging spread names costs up to limit² otherwise). */
const TOO_MANY = Symbol('too many selections');

/**
 * Field selections and fragment spreads written in the document (no fragment expansion), and the
 * response name selected most often within one selection set once its inline fragments and spread
 * fragments are merged in (what graphql-js compares pairwise). Fragments are counted once each (memo).
 */
function countSelections(document: DocumentNode, stopAt: number): { count: number; name: string; same: number } {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const memo = new Map<string, Map<string, number>>();
  let count = 0;
  let name = '';
  let same = 0;
  const note = (names: Map<string, number>) => {
    for (const [n, k] of names) if (k > same) (name = n), (same = k);
  };
  // Names of one set, merged: its fields, inline fragments and spreads, each fragment once (cyclic or unknown spreads add nothing).
  const merged = (
    set: SelectionSetNode,
    into: Map<string, number>,
    pending: SelectionSetNode[],
    spread = new Set<string>(),
  ) => {
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) {
        count++;
        const n = (s.alias ?? s.name).value;
        into.set(n, (into.get(n) ?? 0) + 1);
        if (s.selectionSet) pending.push(s.selectionSet);
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        merged(s.selectionSet, into, pending, spread);
      } else {
        count++;
        // graphql-js merges a fragment spread twice in one set once.
        if (!spread.has(s.name.value))
          for (const [n, k] of fragmentNames(s.name.value)) into.set(n, (into.get(n) ?? 0) + k);
        spread.add(s.name.value);
      }
      if (count > stopAt) throw TOO_MANY;
    }
  };
  const fragmentNames = (fragmentName: string): Map<string, number> => {
    const known = memo.get(fragmentName);
    if (known) return known;
    const names = new Map<string, number>();
    memo.set(fragmentName, names); // a cycle sees the partial (empty) map
    const fragment = fragments.get(fragmentName);
    if (fragment) visit(fragment.selectionSet, names);
    return names;
  };
  // Each set once: the sets below it wait on a stack (no recursion through field depth).
  const visit = (root: SelectionSetNode, rootNames = new Map<string, number>()) => {
    const pending: SelectionSetNode[] = [];
    merged(root, rootNames, pending);
    note(rootNames);
    while (pending.length) {
      const names = new Map<string, number>();
      merged(pending.pop()!, names, pending);
      note(names);
    }
  };
  try {
    for (const d of document.definitions) {
      if (d.kind === Kind.FRAGMENT_DEFINITION) fragmentNames(d.name.value);
      else if (d.kind === Kind.OPERATION_DEFINITION) visit(d.selectionSet);
    }
  } catch (error) {
    if (error !== TOO_MANY) throw error;
  }
  return { count, name, same };
}

/**
 * Validation rule bounding each operation (issue #8, #16: one query cannot take the service down):
 * its written selections (in all, and per response name), its depth, its cost and the searches it starts (see measureDocument), with
 * `variables` the request's variable values. Violations are errors with `extensions.code`
 * QUERY_TOO_LARGE / QUERY_TOO_DEEP / QUERY_TOO_COSTLY.
 */
export function queryLimitsRule(
  limits: QueryLimits = DEFAULT_QUERY_LIMITS,
  variables?: Record<string, unknown> | null,
): ValidationRule {
  const rule = (context: ValidationContext): ASTVisitor => {
    for (const error of checkLimits(context.getSchema(), context.getDocument(), limits, variables))
      context.reportError(error);
    return {};
  };
  return Object.assign(rule, { [LIMITS]: { limits, variables } });
}

const LIMITS = Symbol('queryLimits');

/** The refusals of queryLimitsRule, computed directly on the document (no visit of every node with type information). */
export function checkLimits(
  schema: GraphQLSchema,
  document: DocumentNode,
  limits: QueryLimits,
  variables?: Record<string, unknown> | null,
): GraphQLError[] {
  const { count: selections, name, same } = countSelections(document, limits.maxSelections);
  if (selections > limits.maxSelections) {
    return [
      new GraphQLError(`The document has more than ${limits.maxSelections} field selections and fragment spreads`, {
        extensions: { code: 'QUERY_TOO_LARGE', maxSelections: limits.maxSelections },
      }),
    ];
  }
  if (same > limits.maxSameResponseName) {
    return [
      new GraphQLError(
        `The response name "${name}" is selected ${same} times in one selection set, past the limit of ${limits.maxSameResponseName}`,
        {
          extensions: {
            code: 'QUERY_TOO_LARGE',
            responseName: name,
            selections: same,
            maxSameResponseName: limits.maxSameResponseName,
          },
        },
      ),
    ];
  }
  const measure = measureDocument(schema, document, variables, limits);
  const errors: GraphQLError[] = [];
  for (const node of document.definitions) {
    if (node.kind !== Kind.OPERATION_DEFINITION) continue;
    const root =
      node.operation === 'query'
        ? schema.getQueryType()
        : node.operation === 'mutation'
          ? schema.getMutationType()
          : schema.getSubscriptionType();
    const { depth, cost, searches } = measure(node, root ?? undefined);
    if (depth > limits.maxDepth)
      errors.push(
        new GraphQLError(`Query depth ${depth} exceeds the limit of ${limits.maxDepth}`, {
          nodes: [node],
          extensions: { code: 'QUERY_TOO_DEEP', depth, maxDepth: limits.maxDepth },
        }),
      );
    if (cost > limits.maxCost)
      errors.push(
        new GraphQLError(`Query cost ${cost} exceeds the limit of ${limits.maxCost}`, {
          nodes: [node],
          extensions: { code: 'QUERY_TOO_COSTLY', cost, maxCost: limits.maxCost },
        }),
      );
    if (searches > limits.maxSearches)
      errors.push(
        new GraphQLError(
          `The query starts ${searches} searches of its own, past the limit of ${limits.maxSearches} (by-id fields are batched)`,
          { nodes: [node], extensions: { code: 'QUERY_TOO_COSTLY', searches, maxSearches: limits.maxSearches } },
        ),
      );
  }
  return errors;
}

/**
 * graphql-js `validate` with the limits checked first and alone (checkLimits, without graphql-js's
 * typed visit of every node): a document past its limits is refused before the standard rules run
 * (some, like OverlappingFieldsCanBeMerged, are quadratic in the fields sharing a response name).
 */
export function validateWithinLimits(
  schema: GraphQLSchema,
  document: DocumentNode,
  rules: readonly ValidationRule[] = [],
): readonly GraphQLError[] {
  const limitRules = rules.filter((r) => (r as { [LIMITS]?: unknown })[LIMITS]);
  for (const rule of limitRules) {
    const { limits, variables } = (
      rule as unknown as { [LIMITS]: { limits: QueryLimits; variables?: Record<string, unknown> | null } }
    )[LIMITS];
    const refused = checkLimits(schema, document, limits, variables);
    if (refused.length) return refused;
  }
  return graphqlValidate(
    schema,
    document,
    rules.filter((r) => !limitRules.includes(r)),
  );
}

function objectTypeOf(field: GraphQLField<unknown, unknown> | undefined): GraphQLObjectType | undefined {
  const named = field ? getNamedType(field.type) : undefined;
  return isObjectType(named) ? named : undefined;
}
