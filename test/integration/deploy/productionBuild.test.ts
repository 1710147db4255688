import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../../internal/config.js';
import { eventually } from '../../helpers/eventually.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { seedCampaigns } from '../../helpers/seedCampaigns.js';
import { childProcessEnv, TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** What the image runs: the entry point with a role, from the repository root (the image's /app). */
const ENTRYPOINT = 'scripts/docker-entrypoint.sh';
/** Entry modules of the image's roles (scripts/docker-entrypoint.sh). */
const ROLE_ENTRIES = [
  'dist/api/server.js',
  'dist/jobs/scheduler.js',
  'dist/jobs/cli.js',
  'dist/sql/migrate.js',
  'dist/search-mappings/setup.js',
];

type Exit = { code: number | null; signal: NodeJS.Signals | null; output: string };

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; exited: Promise<Exit>; output: () => string } {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += String(d)));
  child.stderr!.on('data', (d) => (output += String(d)));
  const exited = new Promise<Exit>((done) => child.once('exit', (code, signal) => done({ code, signal, output })));
  return { child, exited, output: () => output };
}

const freePort = () =>
  new Promise<number>((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });

/** Bare package names a compiled module and every module it imports (relative, static or dynamic) reach. */
function packagesReachedFrom(entries: string[]): Map<string, string> {
  const seen = new Set<string>();
  const packages = new Map<string, string>();
  const stack = entries.map((e) => join(ROOT, e));
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    const specs = [
      ...source.matchAll(/^\s*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]/gm), // import … from '…', export … from '…'
      ...source.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm), // import '…'
      ...source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g), // await import('…')
    ].map((m) => m[1]!);
    for (const spec of specs) {
      if (spec.startsWith('.')) stack.push(resolve(dirname(file), spec));
      else if (!spec.startsWith('node:') && !builtinModules.includes(spec)) {
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        if (!packages.has(name)) packages.set(name, file.slice(ROOT.length));
      }
    }
  }
  return packages;
}

describe('the production build (npm run build → dist/), run the way the image runs it (scripts/docker-entrypoint.sh, plain node)', function () {
  let h: Harness;
  let env: NodeJS.ProcessEnv;
  let port: number;
  const children: ChildProcess[] = [];

  before(async function () {
    const build = run('npm', ['run', 'build'], { ...process.env });
    const built = await build.exited;
    expect(built.code, built.output).to.equal(0);
    h = await createHarness({ chainIds: [31337] });
    await seedCampaigns({ chain: h.chains[0]!, perTx: 2, txs: 2 });
    port = await freePort();
    // Production mode: secrets required, no test shortcuts; the harness' services, indices and devnet.
    env = childProcessEnv(h.config, {
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(port),
      JWT_SECRET: 'a-production-like-secret-of-at-least-32-characters',
      BACK_OFFICE_TOKEN: TEST_BACK_OFFICE_TOKEN,
      JOB_BLOCKS_CRON: '*/1 * * * * *',
      JOB_CAMPAIGNS_CRON: '*/1 * * * * *',
      JOB_PUBLISH_CRON: '*/1 * * * * *',
    });
  });

  after(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await h?.close();
  });

  it('compiles to JavaScript whose image roles reach production dependencies only (no tsx, no dev dependencies)', function () {
    for (const entry of ROLE_ENTRIES) expect(existsSync(join(ROOT, entry)), entry).to.equal(true);
    for (const asset of ['dist/sql/migrations', 'dist/search-mappings/campaigns/v1.json', 'dist/web/dist/index.html'])
      expect(existsSync(join(ROOT, asset)), asset).to.equal(true);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const reached = packagesReachedFrom(ROLE_ENTRIES);
    expect(reached.size).to.be.greaterThan(5);
    const notProduction = [...reached]
      .filter(([name]) => !(name in pkg.dependencies))
      .map(([name, from]) => `${name} (from ${from})`);
    expect(notProduction, 'packages the image would not have (npm ci --omit=dev)').to.deep.equal([]);
    expect([...reached.keys()]).to.not.include('tsx');
  });

  it('migrate: applies the migrations and creates the search indices, then exits 0', async function () {
    const migrate = run('sh', [ENTRYPOINT, 'migrate'], env);
    children.push(migrate.child);
    const done = await migrate.exited;
    expect(done.code, done.output).to.equal(0);
    const files = readdirSync(new URL('../../../sql/migrations/', import.meta.url))
      .filter((f) => f.endsWith('.sql'))
      .map((f) => f.replace(/\.sql$/, ''))
      .sort();
    const { rows } = await h.deps.pg.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(rows.map((r) => r.name)).to.deep.equal(files);
  });

  it('scheduler: indexes the chain on its crons and stops cleanly on SIGTERM', async function () {
    const scheduler = run('sh', [ENTRYPOINT, 'scheduler'], env);
    children.push(scheduler.child);
    const campaigns = await eventually(
      async () => {
        const n = Number((await h.deps.pg.query<{ n: string }>('SELECT count(*) AS n FROM campaigns')).rows[0]!.n);
        // A scheduler that exited is a failure at once, not a minute of polling.
        return n > 0 || scheduler.child.exitCode !== null ? n : false;
      },
      { timeoutMs: 60_000, intervalMs: 500, what: 'campaigns indexed by the compiled scheduler' },
    );
    expect(scheduler.child.exitCode, scheduler.output()).to.equal(null);
    expect(campaigns, `campaigns indexed by the compiled scheduler\n${scheduler.output()}`).to.equal(4);
    const { rows } = await h.deps.pg.query<{ trigger: string }>(
      `SELECT DISTINCT trigger FROM job_runs WHERE status = 'success'`,
    );
    expect(rows.map((r) => r.trigger)).to.deep.equal(['schedule']);
    scheduler.child.kill('SIGTERM');
    const done = await scheduler.exited;
    expect(done.code, done.output).to.equal(0);
  });

  it('api: serves the API, the pages and the favicon in production mode, and stops cleanly on SIGTERM', async function () {
    const api = run('sh', [ENTRYPOINT, 'api'], env);
    children.push(api.child);
    const base = `http://127.0.0.1:${port}`;
    const chains = await eventually(
      async () => {
        const answer = await fetch(`${base}/v4/chains`).catch(() => undefined);
        // An API that exited is a failure at once (its answer stays undefined), not a minute of polling.
        return answer?.ok || api.child.exitCode !== null ? answer : false;
      },
      { timeoutMs: 60_000, intervalMs: 300, what: 'the compiled API answering' },
    );
    expect(chains?.status, api.output()).to.equal(200);
    expect(((await chains!.json()) as { id: number }[]).map((c) => c.id)).to.deep.equal([31337]);
    const page = await fetch(`${base}/`);
    expect(page.status).to.equal(200);
    expect(await page.text()).to.include('/assets/');
    expect((await fetch(`${base}/favicon.ico`)).headers.get('content-type')).to.equal('image/x-icon');
    const jobs = await fetch(`${base}/v4/internal/jobs`, { headers: { authorization: TEST_BACK_OFFICE_TOKEN } });
    expect(jobs.status).to.equal(200);
    const limited = await fetch(`${base}/v4/campaigns`);
    expect(limited.headers.get('ratelimit-limit'), 'production applies the default rate limits').to.equal('10');
    api.child.kill('SIGTERM');
    const done = await api.exited;
    expect(done.code, done.output).to.equal(0);
  });

  it('deploy/chains.example.json (README › Running against real chains) passes the configuration schema, with the canonical addresses', function () {
    const chains = readFileSync(join(ROOT, 'deploy/chains.example.json'), 'utf8');
    const config = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), CHAINS: chains });
    expect(config.chains.map((c) => [c.id, c.distributionCreator, c.distributor])).to.deep.equal(
      [1, 8453, 42161].map((id) => [
        id,
        '0x8BB4C975Ff3c250e0ceEA271728547f3802B36Fd',
        '0x3Ef3D8bA38EBe18DB133cEc108f4D14CE00Dd9Ae',
      ]),
    );
    expect(config.chains.every((c) => c.startBlock > 0 && c.confirmations > 0)).to.equal(true);
  });
});
