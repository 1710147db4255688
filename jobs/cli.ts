import { ensureDatabase, migrate } from '../sql/migrate.js';
import { ensureIndices } from '../search-mappings/aliases.js';
import { listCursors } from '../indexer/store/cursor.js';
import { loadConfig } from '../internal/config.js';
import { describeError } from '../internal/errors.js';
import { createLogger } from '../internal/logger.js';
import { createJobDeps } from './deps.js';
import { findJob, JOBS } from './registry.js';
import { lastRuns, runJob } from './runJob.js';

const USAGE = `usage: jobs/cli.ts run <job|all> | list
jobs: ${JOBS.map((j) => j.name).join(', ')}`;

/**
 * Operator CLI: `run <name>` runs one job once (or `all` in pipeline order); `list` prints each
 * job with its schedule, last run and cursors. Exits non-zero on failure (one boundary per process).
 */
async function main(argv: string[]): Promise<number> {
  const [command, name] = argv;
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel, name: 'jobs-cli' });
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  process.once('SIGTERM', () => controller.abort());
  const deps = createJobDeps(config, logger, controller.signal);
  try {
    if (command === 'list') {
      const runs = new Map((await lastRuns(deps)).map((r) => [r.job, r]));
      const cursors = await listCursors(deps.pg);
      for (const job of JOBS) {
        const run = runs.get(job.name);
        console.log(`${job.name.padEnd(12)} ${(config.schedules[job.name] ?? job.defaultCron).padEnd(16)} last=${run ? `${run.status}@${run.startedAt.toISOString()}` : 'never'}  ${job.description}`);
        for (const c of cursors.filter((c) => c.job === job.name)) console.log(`  chain ${c.chainId}: block ${c.blockNumber}`);
      }
      return 0;
    }
    if (command !== 'run' || !name) {
      console.error(USAGE);
      return 2;
    }
    const jobs = name === 'all' ? JOBS : [findJob(name)].filter((j) => j !== undefined);
    if (!jobs.length) {
      console.error(`unknown job "${name}"\n${USAGE}`);
      return 2;
    }
    await ensureDatabase(config.databaseUrl);
    await migrate({ databaseUrl: config.databaseUrl, logger });
    await ensureIndices({ es: deps.es, prefix: config.esIndexPrefix, logger });
    for (const job of jobs) await runJob(job, deps);
    return 0;
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
