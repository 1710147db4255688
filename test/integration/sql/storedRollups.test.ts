import { expect } from 'chai';
import { loadRevenues } from '../../../api/routes/accounting/repo.js';
import { upsertClaims } from '../../../indexer/store/claims.js';
import { rollbackChain } from '../../../indexer/store/rollback.js';
import type { ClaimRow } from '../../../indexer/transform/claims.js';
import { withTransaction } from '../../../internal/pg.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const CHAIN = 31337;
const TOKEN = `0x${'ab'.repeat(20)}`;
const TOKEN_ID = `${CHAIN}-${TOKEN}`;

describe('stored rollups of #33: campaigns.fee_usd and claimed_totals follow their sources', function () {
  let h: Harness;
  before(async function () {
    h = await createHarness({ chainIds: [CHAIN] });
  });
  after(async () => h?.close());

  describe('campaigns.fee_usd (GET /v4/accounting/revenues)', function () {
    const ID = `${CHAIN}-0xfeeusd`;
    const feeUsd = async () =>
      (await h.deps.pg.query<{ usd: string | null }>('SELECT fee_usd::text AS usd FROM campaigns WHERE id = $1', [ID]))
        .rows[0]!.usd;
    const price = (day: string, close: number) =>
      h.deps.pg.query(
        `INSERT INTO token_price_history (token_id, day, open, close, min, max, source, updated_at) VALUES ($1, $2, $3, $3, $3, $3, 'test', now())
         ON CONFLICT (token_id, day) DO UPDATE SET close = EXCLUDED.close`,
        [TOKEN_ID, day, close],
      );
    const revenue = async () => (await loadRevenues(h.deps.pg, { chainId: CHAIN, tokenAddress: TOKEN }))[0]!;

    before(async function () {
      await h.deps.pg.query(
        `INSERT INTO tokens (id, chain_id, address, name, symbol, decimals, verified) VALUES ($1, $2, $3, 'Fee', 'FEE', 6, true)`,
        [TOKEN_ID, CHAIN, TOKEN],
      );
      await h.deps.pg.query(
        `INSERT INTO campaigns (id, distribution_chain_id, compute_chain_id, campaign_id, creator, reward_token, amount, campaign_type,
           start_timestamp, end_timestamp, campaign_data, block_number, block_hash, tx_hash, log_index, created_at)
         VALUES ($1, $2, $2, '0xfeeusd', '0xc', $3, 100000000, 1, 0, 1, '0x', 1, '0xb', '0xt', 0, '2026-03-10T23:30:00Z')`,
        [ID, CHAIN, TOKEN],
      );
    });

    it('stays null until the fee is read, and while no price is known on or before the creation day', async function () {
      expect(await feeUsd()).to.equal(null);
      await h.deps.pg.query('UPDATE campaigns SET fee_amount = 3000000 WHERE id = $1', [ID]);
      expect(await feeUsd()).to.equal(null);
      await price('2026-03-11', 7); // the day after creation (UTC): not the creation day's price
      expect(await feeUsd()).to.equal(null);
      expect(await revenue()).to.include({ unpriced: 1, amount_usd: null, campaigns: 1 });
    });

    it('is filled when a price for an earlier day arrives later, and follows a closer close or its removal', async function () {
      await price('2026-03-01', 1.5);
      expect(Number(await feeUsd())).to.equal(4.5);
      expect(await revenue()).to.include({ unpriced: 0, amount_usd: 4.5 });
      await price('2026-03-10', 2);
      expect(Number(await feeUsd())).to.equal(6);
      await price('2026-03-10', 2.5); // a corrected close of the same day
      expect(Number(await feeUsd())).to.equal(7.5);
      await h.deps.pg.query(`DELETE FROM token_price_history WHERE token_id = $1 AND day = '2026-03-10'`, [TOKEN_ID]);
      expect(Number(await feeUsd())).to.equal(4.5);
    });

    it('is recomputed when the fee, the creation time or the token decimals change', async function () {
      await h.deps.pg.query('UPDATE campaigns SET fee_amount = 1000000 WHERE id = $1', [ID]);
      expect(Number(await feeUsd())).to.equal(1.5);
      await h.deps.pg.query(`UPDATE campaigns SET created_at = '2026-03-12T00:00:00Z' WHERE id = $1`, [ID]);
      expect(Number(await feeUsd())).to.equal(7);
      await h.deps.pg.query('UPDATE tokens SET decimals = 5 WHERE id = $1', [TOKEN_ID]);
      expect(Number(await feeUsd())).to.equal(70);
      await h.deps.pg.query('UPDATE campaigns SET fee_amount = NULL WHERE id = $1', [ID]);
      expect(await feeUsd()).to.equal(null);
    });
  });

  describe('claimed_totals (GET /v4/rewards/unclaim)', function () {
    const claim = (recipient: string, amount: bigint, block: number, tx: string, logIndex = 0): ClaimRow => ({
      chainId: CHAIN,
      recipient,
      token: TOKEN,
      amount: amount.toString(),
      blockNumber: block,
      blockHash: `0xb${block}`,
      txHash: tx,
      logIndex,
      timestamp: block,
    });
    const totals = async () =>
      Object.fromEntries(
        (
          await h.deps.pg.query<{ recipient: string; amount: string }>(
            'SELECT recipient, amount::text AS amount FROM claimed_totals WHERE chain_id = $1 AND amount <> 0 ORDER BY 1',
            [CHAIN],
          )
        ).rows.map((r) => [r.recipient, r.amount]),
      );
    /** The same figures recomputed from the claims themselves. */
    const recomputed = async () =>
      Object.fromEntries(
        (
          await h.deps.pg.query<{ recipient: string; amount: string }>(
            `SELECT recipient, sum(amount)::text AS amount FROM claims WHERE chain_id = $1 GROUP BY 1 HAVING sum(amount) <> 0 ORDER BY 1`,
            [CHAIN],
          )
        ).rows.map((r) => [r.recipient, r.amount]),
      );
    const store = (rows: ClaimRow[]) => withTransaction(h.deps.pg, (tx) => upsertClaims(tx, rows));

    it('adds the claims a run stores, and a replayed range does not count twice', async function () {
      const rows = [claim('0xa1', 10n, 10, '0x01'), claim('0xa1', 5n, 12, '0x02'), claim('0xa2', 7n, 12, '0x02', 1)];
      await store(rows);
      await store(rows);
      expect(await totals()).to.deep.equal({ '0xa1': '15', '0xa2': '7' });
      expect(await totals()).to.deep.equal(await recomputed());
    });

    it('moves a claim re-mined with another recipient or amount from its old key to its new one', async function () {
      await store([claim('0xa2', 9n, 13, '0x02', 0)]); // same (tx, log index) as 0xa1's claim of 5
      expect(await totals()).to.deep.equal({ '0xa1': '10', '0xa2': '16' });
      expect(await totals()).to.deep.equal(await recomputed());
    });

    it('takes back the claims a reorg rollback deletes above the common ancestor', async function () {
      await store([claim('0xa3', 4n, 20, '0x03')]);
      await withTransaction(h.deps.pg, (tx) => rollbackChain(tx, CHAIN, 11));
      expect(await totals()).to.deep.equal({ '0xa1': '10' });
      expect(await totals()).to.deep.equal(await recomputed());
    });
  });
});
