import { expect } from 'chai';
import type { Hex } from 'viem';
import {
  createCampaigns,
  encodeErc20CampaignData,
  getLatestTimestamp,
  mine,
  revert,
  snapshot,
} from '../../../contracts/actions.js';
import { jsonRpc } from '../../../contracts/devnet.js';
import { campaignDbId } from '../../../domain/ids.js';
import { indexNames } from '../../../internal/es.js';
import { chaosSettings } from '../../helpers/chaosSettings.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { allDocumentIds } from '../../helpers/esDocumentIds.js';

const DAY = 86_400;
const depths = Array.from({ length: chaosSettings.maxReorgDepth }, (_, i) => i + 1);

describe(`chaos: reorgs of depth 1 to ${chaosSettings.maxReorgDepth} on a devnet (evm_snapshot / evm_revert, then a longer branch)`, function () {
  let h: Harness;
  let rpcUrl: string;
  /** Campaign ids on the canonical chain, as the test created them. */
  const canonical = new Set<string>();
  let n = 0;

  const createOne = async (): Promise<Hex> => {
    const { devnet, stack } = h.chains[0]!;
    const now = await getLatestTimestamp({ rpcUrl });
    const [id] = (
      await createCampaigns({
        rpcUrl,
        chainId: devnet.chainId,
        stack,
        campaigns: [
          {
            rewardToken: stack.tokens.rewards[0]!.address,
            amount: 10n ** 18n,
            campaignType: 1,
            startTimestamp: now + DAY + n,
            duration: 7 * DAY,
            campaignData: encodeErc20CampaignData({ targetToken: stack.tokens.targets[n++ % 2]!.address }),
          },
        ],
      })
    ).campaignIds;
    return id!;
  };
  /** One indexing cycle: each chain job once (the campaigns job publishes its outbox at its end). */
  const indexOnce = async () => {
    const blocks = await h.runJob('blocks');
    const campaigns = await h.runJob('campaigns');
    expect(campaigns.status).to.equal('success');
    await h.refresh();
    return {
      blocks: blocks.status === 'success' ? blocks.result : null,
      campaigns: campaigns.status === 'success' ? campaigns.result : null,
    };
  };
  const maxEventId = async () =>
    (await h.apiPg.query<{ id: string }>('SELECT coalesce(max(id), 0)::text AS id FROM events')).rows[0]!.id;
  const served = async () =>
    ((await h.request().get('/v4/campaigns').query({ items: 100 }).expect(200)).body as { campaignId: string }[])
      .map((c) => c.campaignId)
      .sort();
  const esIds = async () =>
    (await allDocumentIds(h.deps.es, indexNames(h.config.esIndexPrefix, 'campaigns').read)).sort();

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    rpcUrl = h.chains[0]!.devnet.rpcUrl;
    canonical.add((await createOne()).toLowerCase());
    await indexOnce();
  });

  after(async () => h?.close());

  for (const depth of depths) {
    it(`depth ${depth}: after one indexing cycle the served campaigns are those of the new canonical chain`, async function () {
      this.timeout(120_000);
      const fork = await snapshot({ rpcUrl });
      const orphaned: string[] = [];
      const eventsBefore = await maxEventId();
      for (let b = 0; b < depth; b++) orphaned.push((await createOne()).toLowerCase()); // one block each
      await indexOnce();
      expect(await served()).to.include.members(orphaned);
      // The events integrators were told about the orphaned branch (a replacement may reuse an id: by event id).
      const { rows: told } = await h.apiPg.query<{ id: string }>(
        "SELECT id::text FROM events WHERE type = 'campaign.created' AND id > $1 ORDER BY id",
        [eventsBefore],
      );
      expect(told).to.have.length(depth);

      expect(await revert({ rpcUrl, id: fork })).to.equal(true);
      const replacement = (await createOne()).toLowerCase();
      // The new branch is one block longer than the orphaned one. One evm_mine per block: hardhat_mine's
      // lazily generated blocks broke header contiguity after a later evm_revert (see the note in README).
      for (let b = 0; b < depth; b++) await mine({ rpcUrl, timestamp: (await getLatestTimestamp({ rpcUrl })) + 1 });
      canonical.add(replacement);

      const cycle = await indexOnce();
      expect(cycle.blocks?.counts['reorgs'], 'reorgs detected by the blocks job').to.equal(1);
      const expected = [...canonical].sort();
      expect(await served(), `GET /v4/campaigns after ${JSON.stringify(cycle)}`).to.deep.equal(expected);
      expect(await esIds(), 'campaign documents').to.deep.equal(
        expected.map((id) => campaignDbId(31337, id as Hex)).sort(),
      );
      // The event log (#32): what integrators were told about the orphaned blocks is retracted, and named.
      const { rows: created } = await h.apiPg.query<{ id: string; campaign_id: string; retracted: boolean }>(
        "SELECT id::text, payload->>'campaignId' AS campaign_id, retracted FROM events WHERE type = 'campaign.created' ORDER BY id",
      );
      expect(
        created
          .filter((e) => !e.retracted)
          .map((e) => e.campaign_id.toLowerCase())
          .sort(),
      ).to.deep.equal(expected);
      const toldIds = new Set(told.map((e) => e.id));
      const orphanedEvents = created.filter((e) => toldIds.has(e.id));
      expect(orphanedEvents.map((e) => e.retracted)).to.deep.equal(told.map(() => true));
      const { rows: retractions } = await h.apiPg.query<{ ids: string[] }>(
        "SELECT payload->'ids' AS ids FROM events WHERE type = 'retracted' ORDER BY id DESC LIMIT 1",
      );
      expect(retractions[0]?.ids, 'the last retracted event names them').to.include.members(
        orphanedEvents.map((e) => e.id),
      );
      const { rows } = await h.apiPg.query<{ number: string; hash: string }>(
        'SELECT number, hash FROM blocks WHERE chain_id = 31337 ORDER BY number DESC LIMIT $1',
        [depth + 1],
      );
      for (const row of rows) {
        const block = await jsonRpc<{ hash: string }>(rpcUrl, 'eth_getBlockByNumber', [
          `0x${Number(row.number).toString(16)}`,
          false,
        ]);
        expect(row.hash, `stored header ${row.number}`).to.equal(block.hash);
      }
    });
  }
});
