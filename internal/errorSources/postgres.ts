import pg from 'pg';
import type { Classification } from './classification.js';

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const UNAVAILABLE_MESSAGE =
  /timeout exceeded when trying to connect|Connection terminated|connection error and is not queryable|the database system is (starting up|shutting down)/i;
/** A statement timed out (57014): the server could not answer in time. */
export const STATEMENT_TIMEOUT = '57014';
/** Serialization failure, deadlock, lock not available: the same transaction may well pass next time. */
const RETRYABLE_SQLSTATES = new Set(['40001', '40P01', '55P03']);
const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * PostgreSQL is down, restarting or out of connections: refused or reset sockets, admin/crash
 * shutdown and cannot-connect-now (57P01–57P03), too many connections (53300), any SQLSTATE of
 * class 08 (connection exception), and node-postgres' own "Connection terminated" errors for
 * queries in flight when the server goes away.
 */
export function isPostgresUnavailable(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  return UNAVAILABLE_MESSAGE.test(String((error as Error)?.message));
}

/**
 * A failure of a PostgreSQL query or connection (null: not one): an outage or a statement timeout
 * is retryable and `unavailable`; a serialization failure, deadlock or lock timeout is retryable;
 * anything else (constraint, bad data, syntax) is fatal: our bug, since requests are validated first.
 */
export function classifyPostgresError(error: unknown): Classification | null {
  const code = (error as { code?: unknown })?.code;
  if (isPostgresUnavailable(error))
    return {
      source: 'postgresql',
      retryable: true,
      userError: false,
      unavailable: true,
      reason: typeof code === 'string' ? code : 'connection lost',
    };
  if (code === STATEMENT_TIMEOUT)
    return { source: 'postgresql', retryable: true, userError: false, unavailable: true, reason: 'statement timeout' };
  if (error instanceof pg.DatabaseError || (typeof code === 'string' && SQLSTATE.test(code)))
    return {
      source: 'postgresql',
      retryable: RETRYABLE_SQLSTATES.has(String(code)),
      userError: false,
      unavailable: false,
      reason: `SQLSTATE ${String(code)}`,
    };
  return null;
}
