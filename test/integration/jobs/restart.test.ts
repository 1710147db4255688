import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createCampaigns, encodeErc20CampaignData, getLatestTimestamp } from '../../../contracts/actions.js';
import { indexNames } from '../../../internal/es.js';
import { childProcessEnv } from '../../helpers/testConfig.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { nodeArgs } from '../../helpers/compiledSources.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TX_COUNT = 40;
const PER_TX = 3;

type RunOutcome = { code: number | null; signal: NodeJS.Signals | null; batches: number; output: string[] };

/**
 * Runs `jobs/cli.ts run campaigns` as a separate process, one block per batch. With `killAfter`,
 * sends SIGKILL a random few milliseconds after that many persisted batches holding campaigns
 * (mid-way through a later batch).
 */
async function runIndexer(h: Harness, killAfter?: number): Promise<RunOutcome> {
  const env = childProcessEnv(h.config, { INDEXER_MAX_LOG_RANGE: '1', INDEXER_PUBLISH_BATCH: '7' });
  // node itself (not a wrapper such as tsx's, whose SIGKILL would leave its node child running).
  const child = spawn(process.execPath, await nodeArgs('jobs/cli.ts', 'run', 'campaigns'), {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  let batches = 0;
  createInterface({ input: child.stdout }).on('line', (line) => {
    output.push(line);
    if (!line.includes('"batch persisted"') || line.includes('"campaigns":0')) return;
    batches += 1;
    if (killAfter !== undefined && batches === killAfter)
      setTimeout(() => child.kill('SIGKILL'), Math.floor(Math.random() * 25));
  });
  child.stderr.on('data', (d) => output.push(String(d)));
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, batches, output })));
}

describe('indexer killed in the middle of a batch', function () {
  let h: Harness;
  const created: string[] = [];

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    const { devnet, stack } = h.chains[0]!;
    const now = await getLatestTimestamp({ rpcUrl: devnet.rpcUrl });
    const data = encodeErc20CampaignData({ targetToken: stack.tokens.targets[0]!.address });
    for (let tx = 0; tx < TX_COUNT; tx++) {
      const result = await createCampaigns({
        rpcUrl: devnet.rpcUrl,
        chainId: devnet.chainId,
        stack,
        campaigns: Array.from({ length: PER_TX }, (_, i) => ({
          rewardToken: stack.tokens.rewards[0]!.address,
          amount: 10n ** 18n * BigInt(tx + 1),
          campaignType: 1,
          startTimestamp: now + tx * 10 + i,
          duration: 86_400,
          campaignData: data,
        })),
      });
      created.push(...result.campaignIds.map((id) => id.toLowerCase()));
    }
    // The campaigns job indexes up to the canonical headers the blocks job stored.
    expect((await h.runJob('blocks')).status).to.equal('success');
  });

  after(async () => h?.close());

  /** Campaign rows must match the cursor: every NewCampaign at or below it, none above it. */
  async function assertConsistentWithCursor(): Promise<number> {
    const { rows: cursor } = await h.apiPg.query<{ block_number: string }>(
      `SELECT block_number FROM cursors WHERE job = 'campaigns'`,
    );
    const { rows } = await h.apiPg.query<{ campaign_id: string; block_number: string }>(
      'SELECT campaign_id, block_number FROM campaigns',
    );
    const upTo = cursor[0] ? Number(cursor[0].block_number) : -1;
    expect(
      rows.every((r) => Number(r.block_number) <= upTo),
      'no row beyond the cursor',
    ).to.equal(true);
    const { rows: blocks } = await h.apiPg.query<{ n: string }>(
      'SELECT count(DISTINCT block_number) AS n FROM campaigns',
    );
    expect(rows.length).to.equal(Number(blocks[0]!.n) * PER_TX, 'batches land whole');
    expect(new Set(rows.map((r) => r.campaign_id)).size).to.equal(rows.length);
    return rows.length;
  }

  it('loses and duplicates nothing in PostgreSQL or Elasticsearch across three kills', async function () {
    const counts: number[] = [];
    for (let kill = 0; kill < 3; kill++) {
      const killAfter = 2 + Math.floor(Math.random() * 7);
      const outcome = await runIndexer(h, killAfter);
      expect(outcome.signal, outcome.output.slice(-5).join('\n')).to.equal('SIGKILL');
      counts.push(await assertConsistentWithCursor());
    }
    expect(counts[0]).to.be.above(0);
    expect(counts[2]).to.be.below(created.length, 'every kill interrupted the backfill');
    expect(counts[2]).to.be.at.least(counts[0]!);

    const final = await runIndexer(h);
    expect(final.code, final.output.slice(-5).join('\n')).to.equal(0);
    expect(await assertConsistentWithCursor()).to.equal(created.length);

    const { rows } = await h.apiPg.query<{ campaign_id: string; id: string }>('SELECT id, campaign_id FROM campaigns');
    expect(rows.map((r) => r.campaign_id).sort()).to.deep.equal([...created].sort());
    await h.refresh();
    const index = indexNames(h.config.esIndexPrefix, 'campaigns').read;
    const hits = await h.deps.es.search<{ id: string }>({
      index,
      size: 1000,
      _source: ['id'],
      query: { match_all: {} },
    });
    const esIds = hits.hits.hits.map((x) => x._id);
    expect(esIds).to.have.length(created.length);
    expect([...esIds].sort()).to.deep.equal(rows.map((r) => r.id).sort());
    const { rows: outbox } = await h.apiPg.query<{ n: string }>('SELECT count(*) AS n FROM search_outbox');
    expect(Number(outbox[0]!.n)).to.equal(0);
    const { rows: runs } = await h.apiPg.query<{ status: string; error: string | null }>(
      `SELECT status, error FROM job_runs WHERE job = 'campaigns' ORDER BY id`,
    );
    expect(runs.map((r) => r.status)).to.deep.equal(['failed', 'failed', 'failed', 'success']);
    expect(runs[0]!.error).to.match(/interrupted/);
  });
});
