import { expect } from 'chai';
import { blockAtOrBefore, upsertBlocks } from '../../../../indexer/store/blocks.js';
import { createPgPool, type PgPool } from '../../../../internal/pg.js';
import { resetDatabase } from '../../../helpers/database.js';
import { TEST_DATABASE_URL } from '../../../helpers/testConfig.js';

const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

describe('indexer/store/blocks: blockAtOrBefore, the past block of a vault’s share price (#42)', function () {
  let db: PgPool;

  before(async function () {
    await resetDatabase(TEST_DATABASE_URL);
    db = createPgPool({ connectionString: TEST_DATABASE_URL, applicationName: 'test-blocks' });
    // Blocks 10..14, 12 s apart from t = 1 000 000; another chain's block in between.
    await upsertBlocks(db as never, [
      ...[10, 11, 12, 13, 14].map((n) => ({
        chainId: 1,
        number: n,
        hash: hash(n),
        parentHash: hash(n - 1),
        timestamp: 1_000_000 + (n - 10) * 12,
      })),
      { chainId: 2, number: 99, hash: hash(99), parentHash: hash(98), timestamp: 1_000_030 },
    ]);
  });
  after(async () => db?.end());

  it('is the latest stored block of the chain at or before the time; null before the first', async () => {
    expect(await blockAtOrBefore(db, 1, 1_000_024)).to.deep.equal({ number: 12, timestamp: 1_000_024 });
    expect(await blockAtOrBefore(db, 1, 1_000_035)).to.deep.equal({ number: 12, timestamp: 1_000_024 });
    expect(await blockAtOrBefore(db, 1, 2_000_000)).to.deep.equal({ number: 14, timestamp: 1_000_048 });
    expect(await blockAtOrBefore(db, 1, 999_999)).to.equal(null);
    expect(await blockAtOrBefore(db, 3, 2_000_000)).to.equal(null);
  });
});
