/**
 * PostgreSQL's statements over a threshold during a step of a benchmark (bench:rewards): the bench's
 * database logs every statement that takes `ms` or more (log_min_duration_statement, set for that
 * database only, so other databases' clients are not logged), and the step reads what the server log
 * gained meanwhile. The server log is the one scripts/services/pg.sh starts PostgreSQL with
 * (.data/pg/server.log) unless BENCH_PG_LOG names another; without a readable log there is no figure.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import type { Queryable } from '../../internal/pg.js';

/** One slow statement: its duration and its text, whitespace folded, cut at 160 characters. */
export type SlowStatement = { ms: number; text: string };

/** Logs the statements of database `name` that take `ms` or more (new connections; call before starting the processes). */
export async function logSlowStatements(db: Queryable, name: string, ms: number): Promise<void> {
  await db.query(`ALTER DATABASE "${name.replaceAll('"', '""')}" SET log_min_duration_statement = ${Math.floor(ms)}`);
}

/** The server log's size now, or null when it cannot be read: pass it to `slowStatementsSince`. */
export function serverLogOffset(path: string): number | null {
  return existsSync(path) ? statSync(path).size : null;
}

/** The slow statements the server log gained after `offset` (reading at most `maxBytes`), longest first. */
export function slowStatementsSince(path: string, offset: number | null, maxBytes = 64 << 20): SlowStatement[] {
  if (offset === null || !existsSync(path)) return [];
  const length = Math.min(statSync(path).size - offset, maxBytes);
  if (length <= 0) return [];
  const buffer = Buffer.alloc(length);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, buffer, 0, length, offset);
  } finally {
    closeSync(fd);
  }
  return parseSlowStatements(buffer.toString('utf8'));
}

const DURATION = /duration: ([\d.]+) ms {2}(?:statement|execute [^:]*|bind [^:]*|parse [^:]*): (.*)$/;

/**
 * Pure: the `duration: … ms  statement: …` entries of a PostgreSQL server log text (a statement's
 * continuation lines start with a tab), longest first.
 */
export function parseSlowStatements(log: string): SlowStatement[] {
  const found: SlowStatement[] = [];
  let current: { ms: number; parts: string[] } | null = null;
  const flush = () => {
    if (current) found.push({ ms: current.ms, text: fold(current.parts.join(' ')) });
    current = null;
  };
  for (const line of log.split('\n')) {
    const m = DURATION.exec(line);
    if (m) {
      flush();
      current = { ms: Number(m[1]), parts: [m[2]!] };
    } else if (current && line.startsWith('\t')) current.parts.push(line);
    else flush();
  }
  flush();
  return found.sort((a, b) => b.ms - a.ms);
}

const fold = (text: string) => {
  const folded = text.replace(/\s+/g, ' ').trim();
  return folded.length > 160 ? `${folded.slice(0, 159)}…` : folded;
};
