import type { Config } from '../../internal/config.js';
import type { Logger } from '../../internal/logger.js';
import type { JobDeps } from '../../domain/jobs/types.js';
import { BaseError } from '../../internal/errors.js';

/** What every CLI command receives. Human output goes to `out` (stdout); progress bars to `err` (stderr). */
export type CommandContext = {
  config: Config;
  logger: Logger;
  deps: JobDeps;
  out(line: string): void;
  err: NodeJS.WriteStream;
};

export type Command = {
  /** One usage line, e.g. `pause <job>`. */
  usage: string;
  /** Needs the search indices and aliases to exist (created when absent). */
  needsIndices?: boolean;
  /** @returns the process exit code (2 for bad usage). */
  run(ctx: CommandContext, args: string[]): Promise<number>;
};

/** Thrown by a command for bad arguments: the CLI prints the message and the usage, exit code 2. */
export class UsageError extends BaseError {
  override readonly userError = true;
  override name = 'UsageError';
}
