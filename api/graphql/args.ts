import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
  type GraphQLInputType,
} from 'graphql';
import { ValidationError } from '../errors.js';
import { ajv, toFieldErrors, type Schema } from '../validate.js';
import { numberErrors } from '../inputShape.js';

const GRAPHQL_NAME = /^[_A-Za-z][_A-Za-z0-9]*$/;
const INT32_MAX = 2 ** 31 - 1;

/** The GraphQL input type of one ajv property schema (integers past 32 bits become Float). */
function inputTypeOf(schema: Schema): GraphQLInputType {
  const type = schema['type'];
  if (type === 'boolean') return GraphQLBoolean;
  if (type === 'number') return GraphQLFloat;
  if (type === 'integer')
    return typeof schema['maximum'] === 'number' && schema['maximum'] <= INT32_MAX ? GraphQLInt : GraphQLFloat;
  if (type === 'array') return new GraphQLList(new GraphQLNonNull(inputTypeOf((schema['items'] ?? {}) as Schema)));
  return GraphQLString;
}

/**
 * A GraphQL input object generated from a REST query schema (issue #8: one source of truth), minus
 * `omit`. Each field carries the schema's description; ajv still validates the values.
 */
export function inputTypeFromSchema(
  name: string,
  schema: Schema,
  omit: readonly string[] = [],
): GraphQLInputObjectType {
  const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
  return new GraphQLInputObjectType({
    name,
    description: `Same filters as the REST query (${name}); validated by the same schema.`,
    fields: () =>
      Object.fromEntries(
        Object.entries(properties)
          .filter(([key]) => GRAPHQL_NAME.test(key) && !omit.includes(key))
          .map(([key, s]) => [
            key,
            {
              type: inputTypeOf(s),
              ...(typeof s['description'] === 'string' ? { description: s['description'] } : {}),
            },
          ]),
      ),
  });
}

const compiled = new WeakMap<Schema, ReturnType<typeof ajv.compile>>();

/**
 * Validates resolver arguments with a REST schema (coercion and defaults included).
 * @returns the validated values; throws the REST ValidationError (400 problem, BAD_USER_INPUT in GraphQL) naming each field.
 */
export function checkArgs<T>(schema: Schema, values: Record<string, unknown>): T {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
  const copy = Object.fromEntries(
    Object.entries(structuredClone(values)).filter(([, v]) => v !== undefined && v !== null),
  );
  const errors = validate(copy) ? [] : toFieldErrors(validate.errors, 'arguments');
  errors.push(...numberErrors(copy, 'arguments'));
  if (errors.length) throw new ValidationError(errors);
  return copy as T;
}

/** Paging arguments of a list field, as the REST `page` and `items`. */
export const paging = {
  page: { type: GraphQLInt, description: '0-indexed page (default 0)' },
  items: { type: GraphQLInt, description: 'Page size (default 20, at most 100)' },
};

/** Arguments of a filtered, paged list field. */
export type ListArgs = { filter?: Record<string, unknown> | null; page?: number | null; items?: number | null };
/** Pure: a list field's arguments as the REST query they stand for. */
export const listArgs = (a: ListArgs) => ({ ...(a.filter ?? {}), page: a.page, items: a.items });
