import { expect } from 'chai';
import { forgetChainRows } from '../../../api/chainRecords.js';
import { truthCheck } from '../../../scripts/truthCheck.js';
import { createReferenceDemo, type ReferenceDemo } from './referenceDemo.js';

describe('scripts/truthCheck on the seeded demo: every served root, proof, claimed amount and figure is what the chain and stored prices say', function () {
  let demo: ReferenceDemo;

  before(async function () {
    this.timeout(600_000);
    demo = await createReferenceDemo();
  });

  after(async () => {
    await demo?.close();
  });

  const run = () =>
    truthCheck({
      apiUrl: demo.h.url,
      databaseUrl: demo.h.config.databaseUrl,
      priceMaxAgeSeconds: demo.h.config.prices.maxAgeSeconds,
      chains: demo.h.config.chains.map((c) => ({
        id: c.id,
        rpcUrl: c.rpcUrl,
        distributor: c.distributor,
        distributionCreator: c.distributionCreator,
        startBlock: c.startBlock,
        ...(c.morphoBlue ? { morphoBlue: c.morphoBlue } : {}),
        ...(c.uniswapV4PoolManager ? { uniswapV4PoolManager: c.uniswapV4PoolManager } : {}),
      })),
    });

  it('agrees with the API on the demo, and says what it compared', async function () {
    const report = await run();
    console.log(`      truth check: ${report.figures} figures compared ${JSON.stringify(report.compared)}`);
    expect(report.mismatches).to.deep.equal([]);
    expect(report.compared.roots).to.equal(1);
    expect(report.compared.proofs).to.be.greaterThan(0);
    expect(report.compared.campaigns).to.be.greaterThan(10);
    expect(report.compared.opportunities).to.equal(16);
    // The demo's 3 Uniswap V3 pools, 3 Morpho Blue markets and 3 Uniswap V4 pools, read from the protocol contracts.
    expect(report.compared.protocolTvls).to.equal(9);
    const { rows } = await demo.h.deps.pg.query<{ type: string; method: string }>(
      `SELECT o.type, m.inputs->'tvl'->>'method' AS method FROM opportunities o JOIN opportunity_metrics m ON m.opportunity_id = o.id
       WHERE o.type IN ('CLAMM', 'MORPHO', 'UNISWAP_V4') AND m.tvl > 0 ORDER BY 1, 2`,
    );
    expect(rows.map((r) => `${r.type} ${r.method}`)).to.deep.equal([
      ...Array(3).fill('CLAMM UNISWAP_V3_POOL'),
      ...Array(3).fill('MORPHO MORPHO_BLUE_SUPPLY'),
      ...Array(3).fill('UNISWAP_V4 UNISWAP_V4_POOL'),
    ]);
    expect(report.compared.rewardTokens).to.equal(4);
    expect(report.compared.distributed).to.be.greaterThan(0);
  });

  it('can fail: a served figure that drifts from the chain is reported', async function () {
    const {
      rows: [c],
    } = await demo.h.deps.pg.query<{ id: string }>(
      `SELECT campaign_db_id AS id FROM campaign_metrics WHERE status = 'LIVE' AND daily_rewards_usd > 0 LIMIT 1`,
    );
    await demo.h.deps.pg.query(
      'UPDATE campaign_metrics SET daily_rewards_usd = daily_rewards_usd * 2 WHERE campaign_db_id = $1',
      [c!.id],
    );
    await demo.h.deps.pg.query(`UPDATE chains SET end_of_dispute_period = end_of_dispute_period + 1 WHERE id = 31337`);
    await demo.h.deps.pg.query(
      `UPDATE reward_token_min_amounts SET amount = amount + 1 WHERE (block_number, log_index) = (SELECT block_number, log_index FROM reward_token_min_amounts ORDER BY block_number DESC, log_index DESC LIMIT 1)`,
    );
    // The facet rollup (fresh: nothing it depends on was written) drifting from the stored trees.
    await demo.h.deps.pg.query('UPDATE distributed_facet_rollup SET usd = usd * 2');
    await demo.h.deps.pg.query(`INSERT INTO search_outbox (entity, entity_id) VALUES ('campaign', $1)`, [c!.id]);
    // A pool's served TVL 1 % above what the pool holds (beyond the 0.5 % tolerance).
    const {
      rows: [pool],
    } = await demo.h.deps.pg.query<{ id: string }>(
      `SELECT o.id FROM opportunities o JOIN opportunity_metrics m ON m.opportunity_id = o.id WHERE o.type = 'CLAMM' AND m.tvl > 0 LIMIT 1`,
    );
    await demo.h.deps.pg.query('UPDATE opportunity_metrics SET tvl = tvl * 1.01 WHERE opportunity_id = $1', [pool!.id]);
    await demo.h.deps.pg.query(`INSERT INTO search_outbox (entity, entity_id) VALUES ('opportunity', $1)`, [pool!.id]);
    expect((await demo.h.runJob('publish')).status).to.equal('success');
    await demo.h.refresh();
    forgetChainRows(demo.h.apiPg);
    const report = await run();
    expect(
      report.mismatches.some((m) => m.startsWith('chain 31337 endOfDisputePeriod')),
      report.mismatches.join('\n'),
    ).to.equal(true);
    expect(
      report.mismatches.some((m) => m.startsWith('chain 31337 /roots/live endOfDisputePeriod')),
      report.mismatches.join('\n'),
    ).to.equal(true);
    expect(
      report.mismatches.some((m) => m.startsWith('chain 31337 minimumAmountPerHour')),
      report.mismatches.join('\n'),
    ).to.equal(true);
    expect(
      report.mismatches.some((m) => m.includes('dailyRewards')),
      report.mismatches.join('\n'),
    ).to.equal(true);
    expect(
      report.mismatches.some((m) => m.startsWith(`opportunity ${pool!.id} (CLAMM`) && m.includes(') tvl:')),
      report.mismatches.join('\n'),
    ).to.equal(true);
    expect(
      report.mismatches.some((m) => m.startsWith('chain 31337 distributed usd')),
      report.mismatches.join('\n'),
    ).to.equal(true);
  });
});
