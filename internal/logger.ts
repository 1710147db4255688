import { pino, type DestinationStream, type Logger } from 'pino';
import { redactLogged } from './redact.js';

export type { Logger };

export type CreateLoggerParams = {
  level: string;
  name: string;
  /** Where lines go; default stdout. */
  destination?: DestinationStream;
};

/**
 * Structured JSON logger: `msg` plus snake_case fields, one line per event. Error fields (`err`,
 * `reason`, `stack`) are redacted like every error text leaving the process (internal/redact.ts):
 * logs are shipped elsewhere, and an RPC URL there is a provider's API key there.
 * @returns a pino logger writing to `destination` (stdout by default).
 */
export function createLogger({ level, name, destination }: CreateLoggerParams): Logger {
  return pino(
    {
      level,
      name,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: redactLogged, reason: redactLogged, stack: redactLogged },
    },
    destination,
  );
}
