import { pino, type Logger } from 'pino';

export type { Logger };

export type CreateLoggerParams = { level: string; name: string };

/**
 * Structured JSON logger: `msg` plus snake_case fields, one line per event.
 * @returns a pino logger writing to stdout.
 */
export function createLogger({ level, name }: CreateLoggerParams): Logger {
  return pino({ level, name, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime });
}
