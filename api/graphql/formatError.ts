import { GraphQLError } from 'graphql';
import { describeError } from '../../internal/errors.js';
import type { Logger } from '../../internal/logger.js';
import { NotFoundError } from '../errors.js';
import { toAppError } from '../middleware/errorHandler.js';

/** GraphQL code of our AppError codes where the GraphQL convention has its own name. */
const CODES: Record<string, string> = { VALIDATION_FAILED: 'BAD_USER_INPUT', UNAUTHORIZED: 'UNAUTHENTICATED' };

/**
 * Every GraphQL error in the standard shape with `extensions.code` (issue #8): resolver failures
 * map like REST problems (a field-level 400 becomes BAD_USER_INPUT with `extensions.errors`, an
 * outage SERVICE_UNAVAILABLE), anything unexpected becomes INTERNAL_SERVER_ERROR with a generic
 * message and is logged; parse and validation errors get GRAPHQL_PARSE_FAILED / GRAPHQL_VALIDATION_FAILED.
 */
export function createFormatError(logger: Logger) {
  return (error: Readonly<GraphQLError | Error>): GraphQLError => {
    if (!(error instanceof GraphQLError)) {
      logger.error({ msg: 'graphql request failed', err: describeError(error) });
      return new GraphQLError('Internal server error', { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    }
    const original = error.originalError;
    const at = { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path };
    if (original && !(original instanceof GraphQLError)) {
      const appError = toAppError(original);
      if (appError?.expose) {
        return new GraphQLError(appError.message, {
          ...at,
          extensions: {
            code: CODES[appError.code] ?? appError.code,
            status: appError.status,
            ...(appError.errors ? { errors: appError.errors } : {}),
            ...appError.extensions,
          },
        });
      }
      logger.error({
        msg: 'graphql resolver failed',
        path: error.path?.join('.'),
        err: describeError(original),
        stack: original.stack,
      });
      return new GraphQLError('Internal server error', { ...at, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    }
    if (typeof error.extensions?.['code'] === 'string') return error as GraphQLError;
    const code = error.message.startsWith('Syntax Error') ? 'GRAPHQL_PARSE_FAILED' : 'GRAPHQL_VALIDATION_FAILED';
    return new GraphQLError(error.message, { ...at, extensions: { ...error.extensions, code } });
  };
}

/**
 * `read`'s value, or null where the REST route answers 404 (unknown, or private to the caller: the
 * same answer), as the by-id fields answer null.
 */
export async function nullWhenNotFound<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}
