import { expect } from 'chai';
import { createPublicClient, http, parseAbi } from 'viem';
import { distributionCreatorAbi } from '../../contracts/artifacts/index.js';
import { checkConsistency } from '../../indexer/project/consistency.js';
import type { Harness } from './harness.js';
import { expectSearchLikePostgres } from './esDocumentIds.js';

const distributorEvents = parseAbi([
  'event TreeUpdated(bytes32 merkleRoot, bytes32 ipfsHash, uint48 endOfDisputePeriod)',
  'event Claimed(address indexed user, address indexed token, uint256 amount)',
]);

/**
 * Asserts that what the jobs wrote equals the chains and that Elasticsearch equals PostgreSQL, over
 * every chain of the harness (campaigns per chain, the other logs in total): one row per NewCampaign / CampaignOverride / TreeUpdated / Claimed log
 * (nothing duplicated, nothing lost), every root's tree verified, an empty outbox, the same ids in the read aliases as in PostgreSQL, and the consistency checker's
 * report clean.
 * @returns the counts compared.
 */
export async function expectIndexedLikeChain(h: Harness): Promise<Record<string, number>> {
  const sql = async (query: string) => Number((await h.apiPg.query<{ n: string }>(query)).rows[0]!.n);
  const chain = { campaigns: 0, overrides: 0, roots: 0, claims: 0 };
  for (const { devnet, stack } of h.chains) {
    const client = createPublicClient({ transport: http(devnet.rpcUrl) });
    const logs = async (address: `0x${string}`, abi: readonly unknown[], eventName: string) =>
      (
        await client.getContractEvents({
          address,
          abi: abi as never,
          eventName: eventName as never,
          fromBlock: 0n,
          toBlock: 'latest',
        })
      ).length;
    const campaigns = await logs(stack.distributionCreator, distributionCreatorAbi, 'NewCampaign');
    expect(
      await sql(`SELECT count(*) AS n FROM campaigns WHERE distribution_chain_id = ${Number(devnet.chainId)}`),
      `chain ${devnet.chainId}: campaigns = NewCampaign logs`,
    ).to.equal(campaigns);
    chain.campaigns += campaigns;
    chain.overrides += await logs(stack.distributionCreator, distributionCreatorAbi, 'CampaignOverride');
    chain.roots += await logs(stack.distributor, distributorEvents, 'TreeUpdated');
    chain.claims += await logs(stack.distributor, distributorEvents, 'Claimed');
  }
  expect(await sql('SELECT count(*) AS n FROM campaigns'), 'campaigns = NewCampaign logs').to.equal(chain.campaigns);
  expect(
    await sql('SELECT count(DISTINCT (distribution_chain_id, campaign_id)) AS n FROM campaigns'),
    'no campaign twice',
  ).to.equal(chain.campaigns);
  expect(await sql('SELECT count(*) AS n FROM campaign_overrides'), 'overrides = CampaignOverride logs').to.equal(
    chain.overrides,
  );
  expect(await sql('SELECT count(*) AS n FROM roots'), 'roots = TreeUpdated logs').to.equal(chain.roots);
  expect(await sql('SELECT count(*) AS n FROM claims'), 'claims = Claimed logs').to.equal(chain.claims);
  expect(await sql(`SELECT count(*) AS n FROM reward_trees WHERE status = 'verified'`), 'every root verified').to.equal(
    await sql('SELECT count(DISTINCT (chain_id, root)) AS n FROM roots'),
  );
  expect(await sql('SELECT count(*) AS n FROM search_outbox'), 'outbox drained').to.equal(0);

  await h.refresh();
  await expectSearchLikePostgres(h);
  const report = await checkConsistency({ config: h.config, pg: h.apiPg, es: h.deps.es });
  expect(
    report.ok,
    JSON.stringify(
      report.families.map((f) => ({
        family: f.family,
        missing: f.missing.ids,
        extra: f.extra.ids,
        stale: f.stale.documents.slice(0, 3),
      })),
    ),
  ).to.equal(true);
  return chain;
}

/**
 * No job run left `running` once every scheduler has stopped (gracefully: a stop waits for the runs in progress, so a
 * row still `running` is one a killed process left and no later run of its unit closed). Checked after the stop, not
 * while schedulers tick: under load some unit is almost always running.
 */
export async function expectNoRunLeftRunning(h: Harness): Promise<void> {
  const { rows } = await h.apiPg.query<{ job: string; chain_id: number | null; runner: string }>(
    `SELECT job, chain_id, runner FROM job_runs WHERE status = 'running' ORDER BY id`,
  );
  expect(rows, 'no run left running').to.deep.equal([]);
}
