import { ensureIndices } from '../search-mappings/aliases.js';
import { ensureDatabase, migrate } from '../sql/migrate.js';
import { loadConfig } from '../internal/config.js';
import { describeError } from '../internal/errors.js';
import { createLogger } from '../internal/logger.js';
import { backfillCommand } from './commands/backfill.js';
import { backfillRewardTokensCommand } from './commands/backfillRewardTokens.js';
import { checkCommand } from './commands/check.js';
import { listCommand } from './commands/list.js';
import { pauseCommand, resumeCommand } from './commands/pause.js';
import { reindexCommand } from './commands/reindex.js';
import { runCommand } from './commands/run.js';
import { scheduleCommand } from './commands/schedule.js';
import { UsageError, type Command } from './commands/types.js';
import { createJobDeps } from './deps.js';
import { JOBS } from './registry.js';

const COMMANDS: Record<string, Command> = {
  list: listCommand,
  run: runCommand,
  pause: pauseCommand,
  resume: resumeCommand,
  schedule: scheduleCommand,
  backfill: backfillCommand,
  'backfill-reward-tokens': backfillRewardTokensCommand,
  reindex: reindexCommand,
  check: checkCommand,
};

const USAGE = `usage: jobs/cli.ts <command>
${Object.values(COMMANDS)
  .map((c) => `  ${c.usage}`)
  .join('\n')}
jobs: ${JOBS.map((j) => j.name).join(', ')}`;

/**
 * Operator CLI (one command per module in jobs/commands/): list, run, pause, resume, schedule,
 * backfill, backfill-reward-tokens, reindex, check. Applies pending migrations first (and creates missing search indices
 * for commands that need them). Exit codes: 0 done, 1 failure (or `check` found differences),
 * 2 bad usage. One boundary per process: anything thrown is logged and exits non-zero.
 */
async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    console.error(name && name !== '--help' ? `unknown command "${name}"\n${USAGE}` : USAGE);
    return 2;
  }
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel, name: 'jobs-cli' });
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  process.once('SIGTERM', () => controller.abort());
  await ensureDatabase(config.databaseUrl);
  await migrate({ databaseUrl: config.databaseUrl, logger: logger.child({}, { level: 'warn' }) });
  const deps = createJobDeps(config, logger, controller.signal);
  try {
    if (command.needsIndices)
      await ensureIndices({ es: deps.es, prefix: config.esIndexPrefix, logger, shape: config.esIndexShape });
    return await command.run({ config, logger, deps, out: (line) => console.log(line), err: process.stderr }, args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n${USAGE}`);
    return 2;
  } finally {
    await deps.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(JSON.stringify({ level: 'fatal', msg: 'jobs cli failed', err: describeError(error) }));
    process.exit(1);
  },
);
