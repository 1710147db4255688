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
    const { summary } = JSON.parse(stdout) as {
      summary: { violations: { rule: { name: string }; from: string; to: string }[]; totalCruised: number };
    };
    expect(summary.totalCruised).to.be.greaterThan(250);
    expect(summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).to.deep.equal([]);
  });
});
