import { expect } from 'chai';
import { parseSlowStatements } from '../../../../scripts/bench/slowStatements.js';

describe('scripts/bench/slowStatements', () => {
  it('reads the duration and folded text of each slow statement of a server log, longest first', () => {
    const log = [
      '2026-11-29 12:00:00.000 UTC [101] LOG:  duration: 312.5 ms  statement: ANALYZE changed_leaves',
      '2026-11-29 12:00:01.000 UTC [102] LOG:  duration: 4100.25 ms  execute <unnamed>: INSERT INTO reward_leaf_versions (chain_id)',
      '\t     SELECT $1 FROM changed',
      "2026-11-29 12:00:01.000 UTC [102] DETAIL:  parameters: $1 = '31337'",
      '2026-11-29 12:00:02.000 UTC [103] LOG:  checkpoint starting: time',
      '2026-11-29 12:00:03.000 UTC [104] LOG:  duration: 900 ms  statement: SELECT reward_campaign_anchors_build($1, $2, $3)',
    ].join('\n');
    expect(parseSlowStatements(log)).to.deep.equal([
      { ms: 4100.25, text: 'INSERT INTO reward_leaf_versions (chain_id) SELECT $1 FROM changed' },
      { ms: 900, text: 'SELECT reward_campaign_anchors_build($1, $2, $3)' },
      { ms: 312.5, text: 'ANALYZE changed_leaves' },
    ]);
  });

  it('cuts a long statement at 160 characters and finds none in a log without durations', () => {
    const long = `SELECT ${'x, '.repeat(100)}y`;
    const [one] = parseSlowStatements(`LOG:  duration: 1.0 ms  statement: ${long}`);
    expect(one!.text).to.have.length(160);
    expect(one!.text.endsWith('…')).to.equal(true);
    expect(parseSlowStatements('LOG:  database system is ready to accept connections\n')).to.deep.equal([]);
  });
});
