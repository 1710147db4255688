import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';

const run = promisify(execFile);

/** The production folders whose imports the layer rules (.dependency-cruiser.cjs) govern. */
const PRODUCTION = ['api', 'indexer', 'jobs', 'domain', 'internal', 'sql', 'search-mappings'];

describe('architecture: layer boundaries (dependency-cruiser, .dependency-cruiser.cjs)', function () {
  this.timeout(120_000);

  it('finds no import across a forbidden boundary and no cycle in the production code', async () => {
    const { stdout } = await run(
      'npx',
      ['--no-install', 'depcruise', ...PRODUCTION, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    const { summary, modules } = JSON.parse(stdout) as {
      summary: { violations: { rule: { name: string }; from: string; to: string }[]; totalCruised: number };
      modules: { source: string; dependencies: { resolved: string; dynamic: boolean }[] }[];
    };
    expect(summary.totalCruised).to.be.greaterThan(250);
    // The rules count dynamic imports: the cruise sees them (the scheduler's entry point loads its config on use).
    const scheduler = modules.find((m) => m.source === 'jobs/scheduler.ts');
    expect(scheduler?.dependencies.filter((d) => d.dynamic).map((d) => d.resolved)).to.include('internal/config.ts');
    expect(summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).to.deep.equal([]);
  });
});
