import { expect } from 'chai';
import { createCampaigns, encodeErc20CampaignData, getLatestTimestamp } from '../../../contracts/actions.js';
import { enqueueOutbox } from '../../../domain/tables/outbox.js';
import { findJob } from '../../../jobs/registry.js';
import { startScheduler, type Scheduler } from '../../../jobs/scheduler.js';
import { indexNames } from '../../../internal/es.js';
import { createLogger } from '../../../internal/logger.js';
import { withTransaction } from '../../../internal/pg.js';
import { eventually } from '../../helpers/eventually.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

/** A cron that does not tick during a test (1 January, midnight): only follow mode can run the jobs. */
const NEVER = '0 0 0 1 1 *';

describe('jobs: follow mode (a new head runs the chain at once, an outbox write wakes the projector)', function () {
  let h: Harness;
  let scheduler: Scheduler | undefined;

  before(async function () {
    this.timeout(120_000);
    h = await createHarness({ chainIds: [31337] });
  });
  after(async function () {
    this.timeout(60_000);
    await scheduler?.stop();
    await h?.close();
  });

  /** The campaign document of an on-chain id, once searchable (polled every 100 ms, at most 20 s). */
  const searchable = async (campaignId: string, match: (doc: Record<string, unknown>) => boolean = () => true) => {
    const index = indexNames(h.config.esIndexPrefix, 'campaigns').read;
    return eventually(
      async () => {
        const res = await h.deps.es.search<Record<string, unknown>>({
          index,
          query: { term: { campaignId: campaignId.toLowerCase() } },
        });
        const doc = res.hits.hits[0]?._source;
        return doc !== undefined && match(doc) ? doc : false;
      },
      { timeoutMs: 20_000, intervalMs: 100, what: `campaign ${campaignId} searchable as expected` },
    );
  };

  it('indexes a new campaign and makes it searchable with no cron tick, then projects an outbox write at once', async function () {
    this.timeout(90_000);
    const config = {
      ...h.config,
      followPollMs: 100,
      schedules: {
        ...h.config.schedules,
        blocks: NEVER,
        campaigns: NEVER,
        claims: NEVER,
        roots: NEVER,
        publish: NEVER,
      },
    };
    scheduler = startScheduler({
      config,
      logger: createLogger({ level: 'silent', name: 'test' }),
      jobs: ['blocks', 'campaigns', 'claims', 'roots', 'publish'].map((n) => findJob(n)!),
    });
    await scheduler.ready;
    const { devnet, stack } = h.chains[0]!;
    const now = await getLatestTimestamp({ rpcUrl: devnet.rpcUrl });
    const [campaignId] = (
      await createCampaigns({
        rpcUrl: devnet.rpcUrl,
        chainId: devnet.chainId,
        stack,
        campaigns: [
          {
            rewardToken: stack.tokens.rewards[0]!.address,
            amount: 10n ** 18n,
            campaignType: 1,
            startTimestamp: now + 3600,
            duration: 86_400,
            campaignData: encodeErc20CampaignData({ targetToken: stack.tokens.targets[0]!.address }),
          },
        ],
      })
    ).campaignIds;
    const doc = await searchable(campaignId!);
    expect(doc['isPrivate']).to.equal(false);
    const { rows } = await h.deps.pg.query<{ trigger: string; chain_id: number | null }>(
      `SELECT DISTINCT trigger, chain_id FROM job_runs WHERE job IN ('blocks', 'campaigns')`,
    );
    expect(rows, 'run by follow mode as units of the chain').to.deep.equal([{ trigger: 'schedule', chain_id: 31337 }]);

    // A committed outbox write (here: the campaign made private behind the API's back) is projected
    // at once. No block is mined after it (the devnet mines on transactions only): once the runs of the
    // campaign's own head have ended, only the woken projector runs.
    await eventually(
      async () => (await h.deps.pg.query(`SELECT 1 FROM job_runs WHERE status = 'running'`)).rowCount === 0,
      { timeoutMs: 20_000, what: 'no job run in progress' },
    );
    const wroteAt = new Date();
    await withTransaction(h.deps.pg, async (tx) => {
      await tx.query(
        `INSERT INTO campaign_privacy (campaign_db_id, is_private, updated_by) VALUES ($1, true, 'test')
         ON CONFLICT (campaign_db_id) DO UPDATE SET is_private = true`,
        [doc['id']],
      );
      await enqueueOutbox(tx, 'campaign', [String(doc['id'])]);
    });
    await searchable(campaignId!, (d) => d['isPrivate'] === true);
    // The write woke the publish job: a run of it started after the write (no cron ticks, no block was mined). It
    // may start after the document changed: a follow run of the head still queued on a busy machine drains the
    // outbox too, and the woken run waits its turn.
    await eventually(
      async () =>
        (
          await h.deps.pg.query(
            `SELECT 1 FROM job_runs WHERE job = 'publish' AND status = 'success' AND started_at >= $1`,
            [wroteAt],
          )
        ).rowCount! > 0,
      { timeoutMs: 20_000, what: 'the publish job ran, woken by the write' },
    );
  });
});
