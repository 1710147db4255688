import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEsClient } from '../../../internal/es.js';
import { TEST_DATABASE_URL, TEST_ES_URL, uniqueIndexPrefix } from '../../helpers/testConfig.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const HEADING = '## Rewards at real scale (bench:rewards)';

/** Runs `npm run bench:rewards`'s script with `env`; its exit code and output. */
function runBench(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/rewards.ts'], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ES_URL: TEST_ES_URL, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

/** The cells of the Markdown table rows of `text` that start with `| <leaves × campaigns> | <root> |`. */
const rowsOf = (text: string, leaves: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith(`| ${leaves} |`))
    .map((l) => l.split('|').map((c) => c.trim()));

describe('scripts/bench/rewards (npm run bench:rewards) at a tiny size, end to end', function () {
  this.timeout(240_000);
  let dir: string;
  const prefix = uniqueIndexPrefix();

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bench-rewards-report-'));
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('ingests a first and a 1%-changed root through the scheduler and through jobs:run -- all, serves checked reads and replaces its section of the report', async () => {
    // A report with another section and a stale one of this benchmark: the stale one is replaced in place.
    await writeFile(
      join(dir, 'report.md'),
      `# Benchmark report\n\n${HEADING}\n\nstale figures\n\n## claim (15 s)\n\nkept as it is\n`,
    );
    const { code, stdout, stderr } = await runBench({
      BENCH_REWARDS_SIZES: '2000',
      // One shape (a campaign holding every leaf): the 20-campaign shape doubles the run.
      BENCH_REWARDS_CAMPAIGNS: '1',
      BENCH_REWARDS_ENTRY: 'scheduler,run-all',
      BENCH_REWARDS_READS: '20',
      BENCH_REWARDS_COLD_READS: '5',
      BENCH_REWARDS_FIRST_READS: '5',
      BENCH_REWARDS_IDLE_SAMPLES: '2',
      BENCH_REWARDS_KECCAK_SECONDS: '0.2',
      BENCH_REWARDS_DATABASE_URL: TEST_DATABASE_URL,
      BENCH_REWARDS_ES_PREFIX: prefix,
      BENCH_REPORT_DIR: dir,
    });
    expect(code, `${stdout}\n${stderr}`).to.equal(0);

    const report = await readFile(join(dir, 'report.md'), 'utf8');
    expect(report.split(HEADING)).to.have.length(2);
    expect(report).not.to.include('stale figures');
    expect(report).to.match(/## claim \(15 s\)\n\nkept as it is/);
    expect(report).to.match(/commit [0-9a-f]{7}/);
    expect(report).to.match(/[\d,]+ hashes\/s on one core/);
    const rows = rowsOf(report, '2,000 × 1 campaign');
    // Two tables (ingestion, API), a row per root in each.
    expect(rows.map((r) => r[2])).to.deep.equal(['first', '1% changed', 'first', '1% changed']);
    const [first, changed] = rows;
    for (const row of [first!, changed!]) {
      expect(row[3]).to.equal('scheduler'); // entry
      expect(row[5]).to.match(/^[\d.]+ m?s$/); // posted → stored
      expect(row[8]).to.match(/^\d+ MiB \(\d+ MiB\)$/); // job peak RSS (before)
      expect(row[10]).to.match(/^[\d.]+ MiB$/); // bytes stored
    }
    for (const row of rows.slice(2)) expect(row[3]).to.match(/^[\d.]+ ms$/); // first read
    // The same roots stored by the operators' one-shot command: its wall time beside the entry, a new process.
    const command = rowsOf(report, '2,000 × 1 campaign, jobs:run -- all');
    expect(command.map((r) => r[2])).to.deep.equal(['first', '1% changed', 'first', '1% changed']);
    for (const row of command.slice(0, 2)) {
      expect(row[3]).to.match(/^jobs:run -- all \([\d.]+ m?s\)$/);
      expect(row[5]).to.match(/^[\d.]+ m?s$/);
      expect(row[6]).to.match(/^[\d.]+ m?s$/); // its roots run (job_runs, no chain: every chain at once)
      expect(row[8]).to.match(/^\d+ MiB \(new process\)$/);
    }
    expect(report).to.match(/the command's own process [\d.]+ s from its start to its exit/);
    expect(report).to.include('(20 leaves changed)');
    // The profile of each root: the job's timed steps, and one read explained statement by statement.
    expect(report).to.match(/roots run steps: read and staged [\d.]+ m?s, verified/);
    expect(report).to.match(/one spread recipient's read, statement by statement: \d+ statements, \d+ pages/);
    expect(stdout).to.include('| 2,000 × 1 campaign | first |');
    // Nothing left behind in Elasticsearch.
    const es = createEsClient({ node: TEST_ES_URL, requestTimeoutMs: 10_000 });
    try {
      expect(await es.indices.get({ index: `${prefix}-*`, expand_wildcards: 'all' })).to.deep.equal({});
    } finally {
      await es.close();
    }
  });
});
