import { expect } from 'chai';
import {
  isRunSection,
  mergeRowsByFirstCell,
  partialRunBody,
  replaceSection,
  splitSections,
  tableRows,
} from '../../../../scripts/bench/reportSection.js';

const REPORT = [
  '# Benchmark report',
  '',
  '## Machine',
  '',
  '- date: today',
  '',
  '## claim (15 s)',
  '',
  'claim figures',
  '',
  '## Rewards at real scale (bench:rewards)',
  '',
  'old figures',
  '',
  '## load (161 s, exit 1)',
  '',
  'load figures',
  '',
].join('\n');

describe('scripts/bench/reportSection', () => {
  it('replaces a section in place, up to the next section, leaving the others as they are', () => {
    const out = replaceSection(REPORT, 'Rewards at real scale (bench:rewards)', 'new figures\n');
    expect(out).to.equal(REPORT.replace('old figures\n', 'new figures\n'));
  });

  it('replaces the last section up to the end of the report', () => {
    const out = replaceSection(REPORT, 'load (161 s, exit 1)', 'other load figures');
    expect(out.endsWith('## load (161 s, exit 1)\n\nother load figures\n')).to.equal(true);
    expect(out).to.include('old figures');
  });

  it('appends a section the report does not have, and starts an empty report with its title', () => {
    expect(replaceSection(REPORT, 'New (bench:new)', 'x')).to.equal(`${REPORT.trimEnd()}\n\n## New (bench:new)\n\nx\n`);
    expect(replaceSection('', 'New (bench:new)', 'x')).to.equal('# Benchmark report\n\n## New (bench:new)\n\nx\n');
  });

  it('splits a report into its sections and tells the ones `npm run bench` writes from the others', () => {
    const sections = splitSections(REPORT);
    expect(sections.map((s) => s.heading)).to.deep.equal([
      'Machine',
      'claim (15 s)',
      'Rewards at real scale (bench:rewards)',
      'load (161 s, exit 1)',
    ]);
    expect(sections[2]!.text).to.equal('## Rewards at real scale (bench:rewards)\n\nold figures\n');
    expect(sections.map((s) => isRunSection(s.heading))).to.deep.equal([false, true, false, true]);
  });

  it('updates the rows of a partial re-run in place and keeps the others (bench:search with BENCH_KINDS)', () => {
    const section = [
      '## Reads of #33 (bench:search)',
      '',
      'full run line',
      '',
      '| kind | route | API p95 |',
      '|---|---|---:|',
      '| prices | `/v4/prices` | 3 ms |',
      '| roots live | `/v4/roots/live` | 7 ms |',
      '| tokens | `/v4/tokens/reward/1` | 4 ms |',
      '',
      'after the table',
    ].join('\n');
    const previous = tableRows(section);
    expect(previous).to.have.length(3);
    expect(
      mergeRowsByFirstCell(previous, ['| roots live | `/v4/roots/live` | 5 ms |', '| new kind | `/v4/x` | 1 ms |']),
    ).to.deep.equal([
      '| prices | `/v4/prices` | 3 ms |',
      '| roots live | `/v4/roots/live` | 5 ms |',
      '| tokens | `/v4/tokens/reward/1` | 4 ms |',
      '| new kind | `/v4/x` | 1 ms |',
    ]);
    expect(tableRows('no table here')).to.deep.equal([]);
    const head = ['| kind | route | API p95 |', '|---|---|---:|'];
    const once = partialRunBody(section, 'Rows measured again: run 2', head, [
      '| tokens | `/v4/tokens/reward/1` | 2 ms |',
    ]);
    const twice = partialRunBody(`## Reads\n\n${once}`, 'Rows measured again: run 3', head, [
      '| prices | `/v4/prices` | 1 ms |',
    ]);
    expect(twice.split('\n')).to.deep.equal([
      'full run line',
      '',
      'Rows measured again: run 3',
      '',
      ...head,
      '| prices | `/v4/prices` | 1 ms |',
      '| roots live | `/v4/roots/live` | 7 ms |',
      '| tokens | `/v4/tokens/reward/1` | 2 ms |',
    ]);
  });
});
