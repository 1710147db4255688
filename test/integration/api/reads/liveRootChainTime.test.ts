import { expect } from 'chai';
import { createPgPool, type PgPool } from '../../../../internal/pg.js';
import { loadChainTime, loadLiveRoot, loadLiveRoots } from '../../../../api/reads/roots.js';
import { resetDatabase } from '../../../helpers/database.js';
import { TEST_DATABASE_URL } from '../../../helpers/testConfig.js';

const CHAIN = 31337;
const root = (n: number) => `0x${String(n).repeat(64)}`;

/**
 * The live root is decided at the chain's own latest indexed block time (the contract decides on
 * block.timestamp), never on wall clock: whichever is ahead, the served root is getMerkleRoot() at
 * the indexed block.
 */
describe("indexer/store/roots: liveness at the chain's indexed block time, not wall clock", function () {
  let pg: PgPool;
  const now = Math.floor(Date.now() / 1000);

  async function chainAt(blockTime: number) {
    await pg.query('DELETE FROM blocks WHERE chain_id = $1', [CHAIN]);
    await pg.query(
      `INSERT INTO blocks (chain_id, number, hash, parent_hash, timestamp) VALUES ($1, 100, '0xh', '0xp', $2)`,
      [CHAIN, blockTime],
    );
    await pg.query(
      `INSERT INTO cursors (job, chain_id, block_number, updated_at) VALUES ('roots', $1, 100, now())
      ON CONFLICT (job, chain_id) DO UPDATE SET block_number = 100`,
      [CHAIN],
    );
  }

  before(async function () {
    await resetDatabase(TEST_DATABASE_URL);
    pg = createPgPool({ connectionString: TEST_DATABASE_URL, applicationName: 'test' });
    const insert = (n: number, block: number, ts: number, end: number) =>
      pg.query(
        `INSERT INTO roots (chain_id, root, ipfs_hash, end_of_dispute_period, block_number, block_hash, tx_hash, log_index, timestamp) VALUES ($1, $2, '0x', $3, $4, '0xb', '0xt', 0, $5)`,
        [CHAIN, root(n), end, block, ts],
      );
    // Root 2 was published at block 50 and goes live at now − 1 h: before that the contract serves root 1.
    await insert(1, 10, now - 100_000, now - 90_000);
    await insert(2, 50, now - 7200, now - 3600);
  });

  after(async () => pg?.end());

  /** loadLiveRoots (every chain in one statement) decides as loadLiveRoot; a chain without roots has none. */
  async function sameInOneStatement() {
    const batch = await loadLiveRoots(pg, [CHAIN, 999]);
    expect(batch.get(CHAIN)).to.deep.equal(await loadLiveRoot(pg, CHAIN));
    expect(batch.get(999)).to.equal(null);
  }

  it('a chain whose indexed head is before the end still serves the previous root, though wall clock is past it', async function () {
    await chainAt(now - 3601);
    expect(await loadChainTime(pg, CHAIN)).to.equal(now - 3601);
    expect((await loadLiveRoot(pg, CHAIN))!.root).to.equal(root(1));
    await sameInOneStatement();
  });

  it('at the indexed block of the end itself the new root is live (block.timestamp >= endOfDisputePeriod)', async function () {
    await chainAt(now - 3600);
    expect((await loadLiveRoot(pg, CHAIN))!.root).to.equal(root(2));
    await sameInOneStatement();
  });
});
