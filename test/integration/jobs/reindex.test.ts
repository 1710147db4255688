import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { encodeErc20CampaignData, overrideCampaign } from '../../../contracts/actions.js';
import { checkConsistency } from '../../../indexer/project/consistency.js';
import { reindexFamily, ReindexError } from '../../../indexer/project/reindex.js';
import { indexNames } from '../../../internal/es.js';
import { reindexOutdated } from '../../../indexer/project/reindexOutdated.js';
import {
  createIndexVersion,
  ensureIndices,
  latestVersion,
  listFamilyIndices,
  parseConcreteIndexName,
} from '../../../search-mappings/aliases.js';
import { eventually } from '../../helpers/eventually.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { seedCampaigns } from '../../helpers/seedCampaigns.js';

describe('indexer/project/reindex: full rebuild from PostgreSQL with an atomic alias swap', function () {
  let h: Harness;
  let initial: string[] = [];

  const aliasTargets = async (alias: string) => Object.keys(await h.deps.es.indices.getAlias({ name: alias }));
  const countOf = async (family: 'campaigns' | 'opportunities', ids: string[]) =>
    (await h.deps.es.count({ index: indexNames(h.config.esIndexPrefix, family).read, query: { ids: { values: ids } } }))
      .count;

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    ({ ids: initial } = await seedCampaigns({ chain: h.chains[0]!, perTx: 10, txs: 4 }));
    for (const job of ['blocks', 'campaigns']) expect((await h.runJob(job)).status, job).to.equal('success');
    await h.refresh();
    expect(await countOf('campaigns', initial)).to.equal(40);
  });

  after(async () => h?.close());

  it('swaps the read and write aliases with zero failed reads and a constant result count, then deletes the old index', async function () {
    const prefix = h.config.esIndexPrefix;
    const names = indexNames(prefix, 'campaigns');
    const [old] = await aliasTargets(names.read);
    let stop = false;
    const seen = new Set<number>();
    const failures: unknown[] = [];
    let reads = 0;
    // Searches through the read alias, directly and through the API, for the whole reindex.
    const readLoop = (async () => {
      while (!stop) {
        try {
          const [direct, api] = await Promise.all([
            h.deps.es.search({
              index: names.read,
              size: 0,
              track_total_hits: true,
              query: { ids: { values: initial } },
            }),
            h.request().get('/v4/campaigns').query({ items: 100 }),
          ]);
          seen.add((direct.hits.total as { value: number }).value);
          if (api.status !== 200) failures.push(`api ${api.status}`);
          else seen.add(api.body.length);
          reads += 1;
        } catch (error) {
          failures.push(error);
        }
      }
    })();
    const result = await reindexFamily({
      ...h.deps,
      family: 'campaigns',
      batchSize: 4,
      deleteDelayMs: 300,
      onProgress: () => sleep(40),
    });
    const readsAtSwap = reads;
    await eventually(() => reads >= readsAtSwap + 5, { what: 'a few reads after the old index is gone' });
    stop = true;
    await readLoop;

    expect(failures).to.deep.equal([]);
    expect(reads).to.be.above(10);
    expect([...seen]).to.deep.equal([40]);
    expect(result).to.deep.include({
      family: 'campaigns',
      index: `${prefix}-campaigns_v2_r1`,
      previous: [old],
      rows: 40,
      documents: 40,
      replayed: 0,
    });
    expect(await aliasTargets(names.read)).to.deep.equal([result.index]);
    const write = await h.deps.es.indices.getAlias({ name: names.write });
    expect(write).to.deep.equal({ [result.index]: { aliases: { [names.write]: { is_write_index: true } } } });
    expect(await h.deps.es.indices.exists({ index: old! })).to.equal(false);
    const settings = await h.deps.es.indices.getSettings({ index: result.index, name: 'index.refresh_interval' });
    expect(settings[result.index]!.settings).to.deep.equal({ index: { refresh_interval: '1s' } });
  });

  it('keeps documents written during the reindex: entries the projector consumed meanwhile are replayed after the swap', async function () {
    const chain = h.chains[0]!;
    let added: string[] = [];
    let during = false;
    const result = await reindexFamily({
      ...h.deps,
      family: 'opportunities',
      batchSize: 1,
      deleteDelayMs: 0,
      onProgress: async () => {
        if (during) return;
        during = true;
        // Mid-reindex: new campaigns and an override, indexed and projected (to the old indices) by the campaigns job.
        ({ ids: added } = await seedCampaigns({ chain, perTx: 3, txs: 1, targets: 2, salt: 500 }));
        const { rows } = await h.apiPg.query<{ campaign_id: `0x${string}`; start_timestamp: string }>(
          'SELECT campaign_id, start_timestamp FROM campaigns WHERE id = $1',
          [initial[0]],
        );
        // Moves the campaign to the other target: both opportunities change.
        await overrideCampaign({
          rpcUrl: chain.devnet.rpcUrl,
          chainId: chain.devnet.chainId,
          stack: chain.stack,
          campaignId: rows[0]!.campaign_id,
          campaign: {
            campaignType: 1,
            startTimestamp: Number(rows[0]!.start_timestamp),
            duration: 35 * 86_400,
            campaignData: encodeErc20CampaignData({ targetToken: chain.stack.tokens.targets[1]!.address }),
          },
        });
        for (const job of ['blocks', 'campaigns']) expect((await h.runJob(job)).status, job).to.equal('success');
        const { rows: queued } = await h.apiPg.query<{ n: string }>('SELECT count(*) AS n FROM search_outbox');
        expect(Number(queued[0]!.n), 'the projector consumed the entries (old index)').to.equal(0);
      },
    });
    expect(during).to.equal(true);
    expect(result.replayed, 'campaign and opportunity entries kept for replay').to.be.at.least(3);
    const { rows } = await h.apiPg.query<{ entity_id: string }>(
      `SELECT entity_id FROM search_outbox WHERE entity = 'campaign'`,
    );
    expect(rows.map((r) => r.entity_id)).to.include.members(added);

    expect((await h.runJob('publish')).status).to.equal('success');
    await h.refresh();
    expect(await countOf('campaigns', added)).to.equal(3);
    const report = await checkConsistency({ config: h.config, pg: h.deps.pg, es: h.deps.es });
    expect(report.ok, JSON.stringify(report.families.map((f) => [f.family, f.missing, f.extra, f.stale]))).to.equal(
      true,
    );
    expect(report.families.find((f) => f.family === 'opportunities')!.postgres).to.equal(2);
  });

  it('lets one reindex of a prefix run at a time', async function () {
    // The second starts while the first is copying (from the first's progress callback, which waits for it).
    let second: Promise<unknown> | undefined;
    const first = reindexFamily({
      ...h.deps,
      family: 'campaigns',
      deleteDelayMs: 0,
      batchSize: 10,
      onProgress: async () => {
        second ??= reindexFamily({ ...h.deps, family: 'opportunities', deleteDelayMs: 0 });
        await second.catch(() => {});
      },
    });
    const outcomes = await Promise.allSettled([first, first.then(() => second)]);
    expect(second, 'the second reindex was started').to.not.equal(undefined);
    expect(outcomes[0].status).to.equal('fulfilled');
    expect(outcomes[1].status).to.equal('rejected');
    expect((outcomes[1] as PromiseRejectedResult).reason).to.be.instanceOf(ReindexError);
  });

  it('cleans up after a crashed reindex: replays its window and deletes its unaliased index', async function () {
    const prefix = h.config.esIndexPrefix;
    const orphan = `${prefix}-campaigns_v2_r9`;
    await h.deps.es.indices.create({ index: orphan });
    const { rows } = await h.deps.pg.query<{ id: string }>(
      `INSERT INTO search_reindexes (index_prefix, family, index_name) VALUES ($1, 'campaigns', $2) RETURNING id`,
      [prefix, orphan],
    );
    // The trigger keeps what the projector consumes while the (dead) window is open.
    await h.deps.pg.query(`INSERT INTO search_outbox (entity, entity_id) VALUES ('campaign', $1)`, [initial[1]]);
    expect((await h.runJob('publish')).status).to.equal('success');
    const kept = await h.deps.pg.query('SELECT entity, entity_id FROM search_outbox_replay WHERE reindex_id = $1', [
      rows[0]!.id,
    ]);
    // The campaign's entry, and its opportunity's (queued by the projector and consumed in the same drain).
    expect(kept.rows.filter((r) => r.entity === 'campaign')).to.deep.equal([
      { entity: 'campaign', entity_id: initial[1] },
    ]);
    expect(kept.rows.filter((r) => r.entity !== 'campaign').map((r) => r.entity)).to.deep.equal(['opportunity']);

    const result = await reindexFamily({ ...h.deps, family: 'campaigns', deleteDelayMs: 0 });
    expect(result.index).to.equal(`${prefix}-campaigns_v2_r10`);
    expect(await h.deps.es.indices.exists({ index: orphan })).to.equal(false);
    expect((await h.deps.pg.query('SELECT * FROM search_reindexes')).rows).to.deep.equal([]);
    const queued = await h.deps.pg.query(`SELECT entity_id FROM search_outbox WHERE entity = 'campaign'`);
    expect(queued.rows.map((r) => r.entity_id)).to.include(initial[1]);
    expect((await listFamilyIndices({ es: h.deps.es, prefix, family: 'campaigns' })).map((i) => i.index)).to.deep.equal(
      [result.index],
    );
  });
  it('rebuilds at start a family whose aliases point at an older mapping version, once', async function () {
    const prefix = h.config.esIndexPrefix;
    const names = indexNames(prefix, 'opportunities');
    const current = await aliasTargets(names.read);
    // As a deployment of the release before the newest mapping left it: the aliases on a _v1 index.
    const old = await createIndexVersion({ es: h.deps.es, prefix, family: 'opportunities', version: 1 });
    await h.deps.es.indices.updateAliases({
      actions: [
        ...current.flatMap((index) => [
          { remove: { index, alias: names.read } },
          { remove: { index, alias: names.write } },
        ]),
        { add: { index: old, alias: names.read } },
        { add: { index: old, alias: names.write, is_write_index: true } },
      ],
    });
    expect(
      await reindexOutdated({
        ...h.deps,
        current: await ensureIndices({ es: h.deps.es, prefix, logger: h.deps.logger }),
      }),
    ).to.deep.equal(['opportunities']);
    const [now] = await aliasTargets(names.read);
    expect(parseConcreteIndexName(prefix, 'opportunities', now!)?.version).to.equal(latestVersion('opportunities'));
    expect(await h.deps.es.indices.exists({ index: old })).to.equal(false);
    const { rows } = await h.deps.pg.query<{ n: number }>('SELECT count(*)::int AS n FROM opportunities');
    await h.refresh();
    expect((await h.deps.es.count({ index: names.read })).count, 'every opportunity of PostgreSQL').to.equal(
      rows[0]!.n,
    );
    expect(
      await reindexOutdated({
        ...h.deps,
        current: await ensureIndices({ es: h.deps.es, prefix, logger: h.deps.logger }),
      }),
      'already at the newest version',
    ).to.deep.equal([]);
  });

  it('builds the new index with the configured shards and replicas (ES_SHARDS, ES_REPLICAS)', async () => {
    const result = await reindexFamily({
      ...h.deps,
      config: { ...h.config, esIndexShape: { shards: 2, replicas: 0 } },
      family: 'opportunities',
      deleteDelayMs: 0,
    });
    const settings = Object.values(await h.deps.es.indices.getSettings({ index: result.index }))[0]!.settings!.index!;
    expect({ shards: Number(settings.number_of_shards), replicas: Number(settings.number_of_replicas) }).to.deep.equal({
      shards: 2,
      replicas: 0,
    });
  });
});
