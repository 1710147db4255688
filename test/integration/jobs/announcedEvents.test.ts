import { expect } from 'chai';
import type { Address, Hex } from 'viem';
import { updateTree, mine, getLatestTimestamp } from '../../../contracts/actions.js';
import { buildRewardTreeFile } from '../../../contracts/rewardTrees/buildRewardTreeFile.js';
import { writeRewardTree } from '../../../contracts/rewardTrees/writeRewardTree.js';
import { loadLiveRoot } from '../../../domain/tables/roots.js';
import { rollbackChain } from '../../../indexer/store/rollback.js';
import { runMetrics } from '../../../jobs/computeMetrics.js';
import { withTransaction } from '../../../internal/pg.js';
import { createReferenceDemo, type ReferenceDemo } from '../api/referenceDemo.js';

const CHAIN = 31337;

type EventRow = {
  id: string;
  type: string;
  address: string | null;
  root: string | null;
  opportunity_id: string | null;
  campaign_db_id: string | null;
  retracted: boolean;
  payload: Record<string, unknown>;
};

describe('events decided by time and thresholds: root.live, rewards.changed, campaign.ended, opportunity.changed', function () {
  this.timeout(300_000);
  let demo: ReferenceDemo;
  const q = async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) =>
    (await demo.h.deps.pg.query<T>(sql, params)).rows;
  const eventsSince = (after: string, type: string) =>
    q<EventRow>('SELECT * FROM events WHERE id > $1 AND type = $2 ORDER BY id', [after, type]);
  const maxId = async () => (await q<{ id: string }>('SELECT coalesce(max(id), 0)::text AS id FROM events'))[0]!.id;
  /** The (recipient, token) amounts that differ between two stored trees, recomputed over the `rewards` view. */
  const treeDiff = (newRoot: string, oldRoot: string | null) =>
    q<{ recipient: string; token: string; amount: string; previous: string }>(
      `SELECT coalesce(n.recipient, o.recipient) AS recipient, coalesce(n.token, o.token) AS token,
         coalesce(n.amount, 0)::text AS amount, coalesce(o.amount, 0)::text AS previous
       FROM (SELECT * FROM rewards WHERE chain_id = $1 AND root = $2) n
       FULL JOIN (SELECT * FROM rewards WHERE chain_id = $1 AND root = $3) o ON o.recipient = n.recipient AND o.token = n.token
       WHERE n.amount IS DISTINCT FROM o.amount ORDER BY 1, 2`,
      [CHAIN, newRoot, oldRoot],
    );
  const asChanges = (rows: EventRow[]) =>
    rows
      .map((e) => ({
        recipient: e.address!,
        token: e.payload['token'] as string,
        amount: e.payload['amount'] as string,
        previous: e.payload['previousAmount'] as string,
      }))
      .sort((a, b) => (a.recipient + a.token).localeCompare(b.recipient + b.token));
  const runJobs = async (...names: string[]) => {
    for (const name of names) {
      const run = await demo.h.runJob(name);
      expect(run.status, `${name}: ${JSON.stringify(run)}`).to.equal('success');
    }
  };

  /** A new tree of the live one's recipients: the first two earn more, one recipient (0x<digit>…) is new, the rest unchanged. */
  async function publishChangedTree(mineUntilLive: boolean, newcomerDigit: string): Promise<Hex> {
    const live = (await loadLiveRoot(demo.h.deps.pg, CHAIN))!;
    const breakdowns = await q<{
      recipient: string;
      token: string;
      campaign_id: string;
      reason: string;
      amount: string;
    }>(
      `SELECT recipient, token, campaign_id, reason, amount::text FROM reward_breakdowns
       WHERE chain_id = $1 AND root = $2 ORDER BY recipient, token, campaign_id, reason`,
      [CHAIN, live.root],
    );
    const byLeaf = new Map<string, { recipient: string; token: string; breakdowns: typeof breakdowns }>();
    for (const b of breakdowns) {
      const key = `${b.recipient}-${b.token}`;
      const leaf = byLeaf.get(key) ?? { recipient: b.recipient, token: b.token, breakdowns: [] };
      leaf.breakdowns.push(b);
      byLeaf.set(key, leaf);
    }
    const leaves = [...byLeaf.values()];
    const newcomer = `0x${newcomerDigit.repeat(40)}`;
    const file = buildRewardTreeFile({
      chainId: CHAIN,
      rewards: [
        ...leaves.map((l, i) => ({
          recipient: l.recipient as Address,
          token: l.token as Address,
          breakdowns: l.breakdowns.map((b) => ({
            campaignId: b.campaign_id,
            reason: b.reason,
            amount: BigInt(b.amount) + (i < 2 ? 10n ** 18n : 0n),
          })),
        })),
        {
          recipient: newcomer as Address,
          token: leaves[0]!.token as Address,
          breakdowns: [
            { campaignId: leaves[0]!.breakdowns[0]!.campaign_id, reason: 'holder', amount: 5n * 10n ** 17n },
          ],
        },
      ],
    });
    await writeRewardTree(demo.h.config.rewardTrees.source!, file);
    const { devnet, stack } = demo.h.chains[0]!;
    await updateTree({ rpcUrl: devnet.rpcUrl, chainId: CHAIN, stack, root: file.root, mineUntilLive });
    return file.root;
  }

  before(async () => {
    demo = await createReferenceDemo();
  });
  after(async () => demo?.close());

  it('announces the live root once, with one rewards.changed per leaf of it (nothing was announced before)', async () => {
    const live = (await loadLiveRoot(demo.h.deps.pg, CHAIN))!;
    const announced = await eventsSince('0', 'root.live');
    expect(announced.map((e) => e.root)).to.deep.equal([live.root]);
    expect(announced[0]!.payload).to.include({ previousRoot: null, addressEvents: true });
    const changes = await eventsSince('0', 'rewards.changed');
    expect(announced[0]!.payload['rewardsChanged']).to.equal(changes.length);
    expect(changes.length).to.be.greaterThan(0);
    expect(asChanges(changes)).to.deep.equal(await treeDiff(live.root, null));
    expect(changes.every((e) => e.root === live.root)).to.equal(true);

    const before = await maxId();
    await runJobs('blocks', 'roots');
    expect(await eventsSince(before, 'root.live')).to.deep.equal([]);
  });

  it('a pending root is announced when its dispute period ends, with only the leaves that changed', async () => {
    const previous = (await loadLiveRoot(demo.h.deps.pg, CHAIN))!.root;
    const before = await maxId();
    const root = await publishChangedTree(false, '7');
    await runJobs('blocks', 'roots');
    expect((await eventsSince(before, 'root.seen')).map((e) => e.root)).to.deep.equal([root.toLowerCase()]);
    expect(await eventsSince(before, 'root.live'), 'still in its dispute period').to.deep.equal([]);

    const { devnet } = demo.h.chains[0]!;
    const end = (
      await q<{ end: string }>('SELECT end_of_dispute_period::text AS end FROM roots WHERE root = $1', [
        root.toLowerCase(),
      ])
    )[0]!.end;
    await mine({
      rpcUrl: devnet.rpcUrl,
      timestamp: Math.max(Number(end), Number(await getLatestTimestamp({ rpcUrl: devnet.rpcUrl }))) + 1,
    });
    await runJobs('blocks', 'roots');
    const announced = await eventsSince(before, 'root.live');
    expect(announced.map((e) => e.root)).to.deep.equal([root.toLowerCase()]);
    expect(announced[0]!.payload).to.include({ previousRoot: previous, rewardsChanged: 3, addressEvents: true });
    const changes = await eventsSince(before, 'rewards.changed');
    const expected = await treeDiff(root.toLowerCase(), previous);
    expect(expected).to.have.length(3);
    expect(asChanges(changes)).to.deep.equal(expected);
  });

  it('a reorg removing the root retracts its announcement; indexing the blocks again announces it again', async () => {
    const live = (await loadLiveRoot(demo.h.deps.pg, CHAIN))!;
    const announced = (
      await q<EventRow>("SELECT * FROM events WHERE type = 'root.live' AND root = $1", [live.root])
    )[0]!;
    const changes = await q<EventRow>("SELECT * FROM events WHERE type = 'rewards.changed' AND root = $1", [live.root]);
    const before = await maxId();
    await withTransaction(demo.h.deps.pg, (tx) => rollbackChain(tx, CHAIN, live.blockNumber - 1));
    const retracted = await eventsSince(before, 'retracted');
    expect(retracted).to.have.length(1);
    const ids = retracted[0]!.payload['ids'] as string[];
    expect(ids).to.include.members([announced.id, ...changes.map((e) => e.id)]);
    expect(await q('SELECT * FROM live_root_announcements WHERE root = $1', [live.root])).to.deep.equal([]);

    await runJobs('blocks', 'roots');
    const again = await eventsSince(before, 'root.live');
    expect(again.map((e) => e.root)).to.deep.equal([live.root]);
    expect(asChanges(await eventsSince(before, 'rewards.changed'))).to.deep.equal(asChanges(changes));
  });

  it('beyond EVENTS_REWARDS_CHANGED_MAX, root.live names the count and no address events are written', async () => {
    const previous = (await loadLiveRoot(demo.h.deps.pg, CHAIN))!.root;
    const before = await maxId();
    const root = (await publishChangedTree(true, '8')).toLowerCase();
    const max = demo.h.config.eventAnnouncements.rewardsChangedMax;
    demo.h.config.eventAnnouncements.rewardsChangedMax = 1;
    try {
      await runJobs('blocks', 'roots');
    } finally {
      demo.h.config.eventAnnouncements.rewardsChangedMax = max;
    }
    const announced = await eventsSince(before, 'root.live');
    expect(announced.map((e) => e.root)).to.deep.equal([root]);
    expect(announced[0]!.payload).to.include({ previousRoot: previous, addressEvents: false });
    expect(announced[0]!.payload['rewardsChanged']).to.equal((await treeDiff(root, previous)).length);
    expect(await eventsSince(before, 'rewards.changed')).to.deep.equal([]);
  });

  it('campaign.ended once per campaign that became PAST; opportunity.changed when status or a figure moves beyond the threshold', async () => {
    // The demo's first metrics run announced every PAST campaign and every opportunity's first figures.
    const ended = await eventsSince('0', 'campaign.ended');
    const past = await q<{ id: string }>(
      "SELECT campaign_db_id AS id FROM campaign_metrics WHERE status = 'PAST' ORDER BY 1",
    );
    expect(ended.map((e) => e.campaign_db_id).sort()).to.deep.equal(past.map((r) => r.id));
    const firstFigures = await eventsSince('0', 'opportunity.changed');
    const opportunities = await q<{ id: string }>('SELECT opportunity_id AS id FROM opportunity_metrics ORDER BY 1');
    expect(firstFigures.map((e) => e.opportunity_id).sort()).to.deep.equal(opportunities.map((r) => r.id));

    // Nothing moved: nothing announced.
    let before = await maxId();
    await runJobs('metrics');
    expect(await eventsSince(before, 'campaign.ended')).to.deep.equal([]);
    expect(await eventsSince(before, 'opportunity.changed')).to.deep.equal([]);

    // Far in the future every campaign has ended: the ones LIVE or SOON until now are announced ended,
    // and their opportunities' status change is announced.
    const notPast = await q<{ id: string }>(
      "SELECT campaign_db_id AS id FROM campaign_metrics WHERE status <> 'PAST' ORDER BY 1",
    );
    expect(notPast.length).to.be.greaterThan(0);
    before = await maxId();
    await runMetrics(demo.h.deps, { at: new Date(Date.now() + 20 * 365 * 86_400_000) });
    expect((await eventsSince(before, 'campaign.ended')).map((e) => e.campaign_db_id).sort()).to.deep.equal(
      notPast.map((r) => r.id),
    );
    const changed = await eventsSince(before, 'opportunity.changed');
    const live = changed.filter((e) => (e.payload['previous'] as { status: string }).status === 'LIVE');
    expect(live.length).to.be.greaterThan(0);
    for (const e of live) {
      expect(e.payload['status']).to.equal('PAST');
      expect(e.payload['changed']).to.include('status');
    }
    const stored = await q<{ id: string; announced: Record<string, unknown>; tvl: number }>(
      'SELECT opportunity_id AS id, announced, tvl FROM opportunity_metrics',
    );
    for (const e of changed) {
      const row = stored.find((r) => r.id === e.opportunity_id)!;
      expect(row.announced['status']).to.equal(e.payload['status']);
      // Events keep numbers: a TVL unknown now (stored null; here 20 years on every price is stale) is announced as 0.
      expect(e.payload['tvl']).to.equal(row.tvl ?? 0);
    }
  });

  it('a campaign changing while private moves no public figure and sends anonymous readers no event (#43)', async () => {
    // Where the test before left the clock: every campaign has ended there.
    const future = new Date(Date.now() + 20 * 365 * 86_400_000);
    const [c] = await q<{ id: string; opportunity_id: string; creator: string }>(
      `SELECT c.id, cc.opportunity_id, lower(c.creator) AS creator FROM campaigns c JOIN campaigns_current cc ON cc.id = c.id
       WHERE cc.opportunity_id IS NOT NULL ORDER BY c.id LIMIT 1`,
    );
    const announced = async () =>
      (
        await q<{ announced: unknown }>('SELECT announced FROM opportunity_metrics WHERE opportunity_id = $1', [
          c!.opportunity_id,
        ])
      )[0]?.announced ?? null;
    await demo.h.deps.pg.query(
      `INSERT INTO campaign_privacy (campaign_db_id, is_private, updated_by) VALUES ($1, true, $2)
       ON CONFLICT (campaign_db_id) DO UPDATE SET is_private = true`,
      [c!.id, c!.creator],
    );
    const { rows: ends } = await demo.h.deps.pg.query<{ end: string }>(
      'SELECT end_timestamp::text AS end FROM campaigns WHERE id = $1',
      [c!.id],
    );
    try {
      // Going private may move the opportunity's public figures (they were public a moment before).
      await runMetrics(demo.h.deps, { at: future });
      const before = await maxId();
      const figures = await announced();
      // While private, the campaign runs again (live at that time): nothing public moves.
      await demo.h.deps.pg.query('UPDATE campaigns SET end_timestamp = $2 WHERE id = $1', [
        c!.id,
        Math.floor(future.getTime() / 1000) + 30 * 86_400,
      ]);
      await runMetrics(demo.h.deps, { at: future });
      expect(await announced()).to.deep.equal(figures);
      expect(await eventsSince(before, 'opportunity.changed')).to.deep.equal([]);
      const anonymous = (await demo.h.request().get(`/v4/events?after=${before}&limit=1000`).expect(200)).body
        .events as { campaignId: string | null; opportunityId: string | null }[];
      expect(anonymous.filter((e) => e.campaignId === c!.id || e.opportunityId === c!.opportunity_id)).to.deep.equal(
        [],
      );
    } finally {
      await demo.h.deps.pg.query('UPDATE campaigns SET end_timestamp = $2 WHERE id = $1', [c!.id, ends[0]!.end]);
      await demo.h.deps.pg.query('UPDATE campaign_privacy SET is_private = false WHERE campaign_db_id = $1', [c!.id]);
    }
  });
});
