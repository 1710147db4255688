/**
 * SQL of the keys held under advisory-lock class `classParam` (a query parameter such as `$1`) in this
 * database by every session but the one running the statement: the second keys (`objid`, unsigned) of the
 * two-int form `pg_advisory_lock(class, key)`. A lock dies with its session, so a key absent here is held by
 * no live process (what jobs/deadRuns.ts and domain/jobs/runRequests.ts read to find work whose process died);
 * the running session's own locks are left out, so a caller holding a unit's lock still finds that unit's
 * dead rows. Table pg_locks.
 */
export function heldAdvisoryKeysSql(classParam: string): string {
  return `SELECT l.objid::bigint AS key FROM pg_locks l
    WHERE l.locktype = 'advisory' AND l.classid = ${classParam} AND l.objsubid = 2 AND l.granted
      AND l.pid <> pg_backend_pid() AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
}
