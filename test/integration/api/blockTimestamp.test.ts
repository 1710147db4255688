import { expect } from 'chai';
import { getLatestTimestamp, mine } from '../../../contracts/actions.js';
import { jsonRpc } from '../../../contracts/devnet.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

type Block = { number: number; timestamp: number };

/** Every block of the devnet as the node reports it. */
async function devnetBlocks(rpcUrl: string): Promise<Block[]> {
  const head = Number(await jsonRpc<string>(rpcUrl, 'eth_blockNumber'));
  const blocks: Block[] = [];
  for (let n = 0; n <= head; n++) {
    const b = await jsonRpc<{ timestamp: string }>(rpcUrl, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false]);
    blocks.push({ number: n, timestamp: Number(b.timestamp) });
  }
  return blocks;
}

describe('GET /v4/block-timestamp/* against a devnet', function () {
  let h: Harness;
  let rpcUrl: string;
  let blocks: Block[];
  let indexedHead: number;
  const chainId = 31337;

  before(async function () {
    h = await createHarness({ chainIds: [chainId] });
    rpcUrl = h.chains[0]!.devnet.rpcUrl;
    // Ten blocks 100 s apart, indexed; then ten blocks 50 s apart that the indexer has not seen.
    let t = (await getLatestTimestamp({ rpcUrl })) + 1000;
    for (let i = 0; i < 10; i++, t += 100) await mine({ rpcUrl, timestamp: t });
    await h.runJob('blocks');
    indexedHead = Number(await jsonRpc<string>(rpcUrl, 'eth_blockNumber'));
    for (let i = 0; i < 10; i++, t += 50) await mine({ rpcUrl, timestamp: t });
    blocks = await devnetBlocks(rpcUrl);
  });

  after(async () => h?.close());

  const get = (path: string, query: Record<string, unknown>) =>
    h.request().get(`/v4/block-timestamp/${path}`).query(query);

  it('indexed the first part of the chain only, so both sources are exercised', async function () {
    const { rows } = await h.apiPg.query<{ max: string }>('SELECT max(number) AS max FROM blocks WHERE chain_id = $1', [
      chainId,
    ]);
    expect(Number(rows[0]!.max)).to.equal(indexedHead);
    expect(blocks.length - 1).to.equal(indexedHead + 10);
  });

  it('/timestamp returns exactly what the devnet says for every block', async function () {
    for (const b of blocks) {
      const res = await get('timestamp', { chainId, blockNumber: b.number }).expect(200);
      expect(res.body, `block ${b.number}`).to.deep.equal({ timestamp: b.timestamp });
    }
  });

  it("/timestamp past the head is a 400 naming blockNumber: the block does not exist yet (never the head's timestamp)", async function () {
    for (const blockNumber of [blocks.length, blocks.length + 100]) {
      const res = await get('timestamp', { chainId, blockNumber }).expect(400);
      expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
      expect(res.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['blockNumber']);
    }
    const head = await get('timestamp', { chainId, blockNumber: blocks.length - 1 }).expect(200);
    expect(head.body).to.deep.equal({ timestamp: blocks[blocks.length - 1]!.timestamp });
  });

  it('/bounds on a block timestamp is an exact match, indexed or not', async function () {
    for (const b of [blocks[3]!, blocks[indexedHead - 2]!, blocks[indexedHead + 4]!, blocks[blocks.length - 1]!]) {
      const res = await get('bounds', { chainId, timestamp: b.timestamp }).expect(200);
      const point = { blockNumber: b.number, timestamp: b.timestamp };
      expect(res.body, `block ${b.number}`).to.deep.equal({ lower: point, upper: point, exactMatch: true });
    }
  });

  it('/bounds between two blocks gives the closest block on each side', async function () {
    for (const i of [indexedHead - 3, indexedHead, indexedHead + 5]) {
      const [lo, hi] = [blocks[i]!, blocks[i + 1]!];
      const target = lo.timestamp + 1;
      expect(hi.timestamp).to.be.greaterThan(target);
      const res = await get('bounds', { chainId, timestamp: target }).expect(200);
      expect(res.body, `between ${lo.number} and ${hi.number}`).to.deep.equal({
        lower: { blockNumber: lo.number, timestamp: lo.timestamp },
        upper: { blockNumber: hi.number, timestamp: hi.timestamp },
        exactMatch: false,
      });
    }
  });

  it('/bounds out of range has a null side', async function () {
    const genesis = blocks[0]!;
    const before = await get('bounds', { chainId, timestamp: genesis.timestamp - 1 }).expect(200);
    expect(before.body).to.deep.equal({
      lower: null,
      upper: { blockNumber: 0, timestamp: genesis.timestamp },
      exactMatch: false,
    });
    const head = blocks[blocks.length - 1]!;
    const after = await get('bounds', { chainId, timestamp: head.timestamp + 10_000 }).expect(200);
    expect(after.body).to.deep.equal({
      lower: { blockNumber: head.number, timestamp: head.timestamp },
      upper: null,
      exactMatch: false,
    });
  });

  it('/block returns the closest block (earlier one on a tie), clamped at both ends', async function () {
    const i = indexedHead - 4; // 100 s gap, indexed
    const [lo, hi] = [blocks[i]!, blocks[i + 1]!];
    expect((await get('block', { chainId, timestamp: lo.timestamp + 40 })).body).to.deep.equal({
      blockNumber: lo.number,
    });
    expect((await get('block', { chainId, timestamp: hi.timestamp - 40 })).body).to.deep.equal({
      blockNumber: hi.number,
    });
    expect((await get('block', { chainId, timestamp: (lo.timestamp + hi.timestamp) / 2 })).body).to.deep.equal({
      blockNumber: lo.number,
    });
    const j = indexedHead + 6; // 50 s gap, not indexed
    expect((await get('block', { chainId, timestamp: blocks[j]!.timestamp + 30 })).body).to.deep.equal({
      blockNumber: j + 1,
    });
    expect((await get('block', { chainId, timestamp: 0 })).body).to.deep.equal({ blockNumber: 0 });
    expect((await get('block', { chainId, timestamp: blocks[blocks.length - 1]!.timestamp + 999 })).body).to.deep.equal(
      { blockNumber: blocks.length - 1 },
    );
  });

  for (const [path, query, field] of [
    ['block', { chainId: 'abc', timestamp: 1 }, 'chainId'],
    ['block', { chainId }, 'timestamp'],
    ['block', { chainId: 999, timestamp: 1 }, 'chainId'],
    ['timestamp', { chainId, blockNumber: -1 }, 'blockNumber'],
    ['timestamp', { chainId, blockNumber: '1.5' }, 'blockNumber'],
    ['bounds', { chainId, timestamp: 'soon' }, 'timestamp'],
    ['bounds', { timestamp: 5 }, 'chainId'],
  ] as const) {
    it(`/${path} answers 400 naming ${field} for ${JSON.stringify(query)}`, async function () {
      const res = await get(path, query).expect(400);
      expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
      expect(res.body.errors.map((e: { field: string }) => e.field)).to.include(field);
    });
  }
});
