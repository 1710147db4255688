import { expect } from 'chai';
import { parseBackfillArgs } from '../../../../jobs/commands/backfill.js';
import { UsageError } from '../../../../jobs/commands/types.js';

describe('jobs/commands/backfill', () => {
  describe('parseBackfillArgs', () => {
    it('reads the chain, the block and an optional job list (either flag form)', () => {
      expect(parseBackfillArgs(['31337', '120'])).to.deep.equal({ chainId: 31337, fromBlock: 120, names: null });
      expect(parseBackfillArgs(['31337', '0', '--jobs', 'campaigns, roots'])).to.deep.equal({
        chainId: 31337,
        fromBlock: 0,
        names: ['campaigns', 'roots'],
      });
      expect(parseBackfillArgs(['--jobs=blocks', '1', '5'])).to.deep.equal({
        chainId: 1,
        fromBlock: 5,
        names: ['blocks'],
      });
    });

    for (const args of [[], ['1'], ['1', 'x'], ['1', '-3'], ['1', '2', '3'], ['1', '2', '--jobs', '']]) {
      it(`refuses ${JSON.stringify(args)} as a usage error`, () => {
        expect(() => parseBackfillArgs(args)).to.throw(UsageError);
      });
    }
  });
});
