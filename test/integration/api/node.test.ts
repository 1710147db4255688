import { expect } from 'chai';
import { createReferenceDemo, type ReferenceDemo } from './referenceDemo.js';

describe('GET /v4/node on the seeded demo (reference data)', function () {
  let demo: ReferenceDemo;
  let pool: { id: string; identifier: string; type: string; action: string };

  before(async function () {
    this.timeout(600_000);
    demo = await createReferenceDemo();
    const { rows } = await demo.h.deps.pg.query<typeof pool>(
      `SELECT id, identifier, type, action FROM opportunities WHERE type = 'CLAMM' ORDER BY id LIMIT 1`,
    );
    pool = rows[0]!;
  });

  after(async () => demo?.close());

  const node = async (query: Record<string, unknown>) =>
    (await demo.h.request().get('/v4/node').query(query).expect(200)).body as Record<string, unknown>[];

  it('labels our Distributor and DistributionCreator from configuration', async function () {
    const { distributor, distributionCreator, startBlock } = demo.h.config.chains[0]!;
    const [d] = await node({ addressOrId: distributor.toUpperCase().replace('0X', '0x') });
    expect(d).to.deep.equal({
      id: `31337-${distributor.toLowerCase()}`,
      chainId: 31337,
      protocol: 'DISTRIBUTOR',
      recipient: distributor.toLowerCase(),
      nodesSourceId: 'config-31337',
      creationBlockNumber: startBlock,
      metadata: { label: 'Distributor' },
      nodeSource: {
        id: 'config-31337',
        protocol: 'DISTRIBUTOR',
        lastFetchedBlockNumber: startBlock,
        chainId: 31337,
        source: 'config',
        topics: [],
      },
    });
    expect((await node({ addressOrId: distributionCreator, chainId: 31337 })).map((n) => n['protocol'])).to.deep.equal([
      'DISTRIBUTION_CREATOR',
    ]);
    expect(await node({ addressOrId: distributionCreator, chainId: 1 })).to.deep.equal([]);
  });

  it('labels opportunity identifiers and ids with their campaign type', async function () {
    const [byAddress] = await node({ addressOrId: pool.identifier, chainId: 31337 });
    const { rows } = await demo.h.deps.pg.query<{ b: string; cursor: string }>(
      `SELECT min(block_number)::text AS b, (SELECT block_number::text FROM cursors WHERE job = 'campaigns' AND chain_id = 31337) AS cursor
       FROM campaigns_current WHERE opportunity_id = $1`,
      [pool.id],
    );
    expect(byAddress).to.deep.equal({
      id: pool.id,
      chainId: 31337,
      protocol: 'CLAMM',
      recipient: pool.identifier,
      nodesSourceId: 'opportunities-31337',
      creationBlockNumber: Number(rows[0]!.b),
      metadata: { opportunityId: pool.id, action: pool.action, type: 'CLAMM' },
      nodeSource: {
        id: 'opportunities-31337',
        protocol: 'CLAMM',
        lastFetchedBlockNumber: Number(rows[0]!.cursor),
        chainId: 31337,
        source: 'opportunities',
        topics: [],
      },
    });
    expect(await node({ addressOrId: pool.id })).to.deep.equal([byAddress]);
    expect(await node({ addressOrId: pool.identifier, chainId: 999 })).to.deep.equal([]);
  });

  it('returns an empty array for an address nobody labelled', async function () {
    expect(await node({ addressOrId: `0x${'7'.repeat(40)}` })).to.deep.equal([]);
  });

  it('answers 400 naming addressOrId and chainId', async function () {
    const missing = await demo.h.request().get('/v4/node').expect(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['addressOrId']);
    const bad = await demo.h.request().get('/v4/node').query({ addressOrId: 'pool', chainId: 'main' }).expect(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).to.deep.equal(['addressOrId', 'chainId']);
  });
});
