import { expect } from 'chai';
import { RewardTreeFormatError } from '../../../../indexer/decode/parseRewardTree.js';
import { readRewardTree } from '../../../../indexer/decode/readRewardTree.js';
import {
  readTreeDocument,
  type TreeDocumentBatch,
  UNKNOWN_FORMAT,
} from '../../../../indexer/decode/readTreeDocument.js';

const ROOT = `0x${'ab'.repeat(32)}`;
const TOKEN = '0x2222222222222222222222222222222222222222';
/** A Merkl row as its API publishes them: checksummed addresses, decimal-string amounts. */
const row = (i: number, amount = String(1000 + i)) => ({
  campaignId: `0x${(i % 3).toString(16).padStart(64, 'c')}`,
  recipient: `0x${i.toString(16).padStart(40, 'A')}`,
  reason: `reason-${i % 2}`,
  rewardToken: `0x${'2'.repeat(40)}`,
  amount,
  lastProcessedTimestamp: 1_700_000_000 + i,
  ...(i % 2 ? { auxiliaryData1: i, auxiliaryData2: 0 } : {}),
});

async function* chunksOf(text: string, size = 7): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function readAll(text: string, size?: number) {
  const reader = readTreeDocument(chunksOf(text, size));
  const batches: TreeDocumentBatch[] = [];
  for (let next = await reader.next(); ; next = await reader.next()) {
    if (next.done) return { end: next.value, batches };
    batches.push(next.value);
  }
}

async function refusal(text: string): Promise<RewardTreeFormatError> {
  try {
    await readAll(text);
  } catch (error) {
    expect(error).to.be.instanceOf(RewardTreeFormatError);
    return error as RewardTreeFormatError;
  }
  throw new Error('the document was accepted');
}

describe('indexer/decode/readTreeDocument: both tree formats, told apart by the document', () => {
  it("reads Merkl's bare array of expanded leaves: every row with its position, addresses lower-cased, in batches", async () => {
    const rows = Array.from({ length: 40 }, (_, i) => row(i));
    const { end, batches } = await readAll(JSON.stringify(rows, null, 2), 512);
    expect(end).to.deep.equal({ format: 'merkl', rows: 40 });
    expect(batches.every((b) => b.format === 'merkl')).to.equal(true);
    expect(batches.length, 'more than one batch').to.be.greaterThan(1);
    const read = batches.flatMap((b) => (b.format === 'merkl' ? b.rows : []));
    expect(read.map((r) => r.index)).to.deep.equal(rows.map((_, i) => i));
    expect(read[5]!.row).to.deep.equal({
      campaignId: rows[5]!.campaignId,
      recipient: rows[5]!.recipient.toLowerCase(),
      reason: 'reason-1',
      token: TOKEN,
      amount: '1005',
    });
  });

  it('reads our own object as before, with its header', async () => {
    const rewards = [{ recipient: `0x${'A'.repeat(40)}`, token: TOKEN, amount: '5', breakdowns: [] }];
    const { end, batches } = await readAll(JSON.stringify({ root: ROOT, chainId: 7, rewards }));
    expect(end).to.deep.equal({ format: 'rewards', header: { root: ROOT, chainId: 7 } });
    expect(batches).to.deep.equal([
      { format: 'rewards', entries: [{ index: 0, entry: { ...rewards[0], recipient: `0x${'a'.repeat(40)}` } }] },
    ]);
  });

  it('reads an empty array as an empty Merkl document', async () => {
    expect(await readAll('[ ]')).to.deep.equal({ end: { format: 'merkl', rows: 0 }, batches: [] });
  });

  it('refuses the first bad row naming its position and field', async () => {
    const bad = await refusal(JSON.stringify([row(0), row(1), row(2, '-5')]));
    expect(bad.message).to.match(/^invalid reward tree: \/2\/amount must match pattern/);
    expect(bad.details).to.deep.include({ field: '/2/amount', position: 2 });
    const { rewardToken: _, ...tokenless } = row(1);
    expect((await refusal(JSON.stringify([row(0), tokenless]))).message).to.match(
      /^invalid reward tree: \/1\/rewardToken must have required property/,
    );
    expect((await refusal(JSON.stringify([row(0), { ...row(1), recipient: '0x12' }]))).message).to.match(
      /\/1\/recipient must match/,
    );
  });

  it('refuses JSON of neither format saying so, and text that is not JSON as not JSON', async () => {
    const entry = { recipient: `0x${'a'.repeat(40)}`, token: TOKEN, amount: '5', breakdowns: [] };
    const unknown = [
      JSON.stringify([entry]),
      JSON.stringify({ merkleRoot: ROOT, claims: { [entry.recipient]: { amount: '5' } } }),
      JSON.stringify([[row(0)]]),
      JSON.stringify([1, 2]),
      '{}',
      '"a tree"',
      '42',
      'null',
    ];
    for (const text of unknown) {
      const error = await refusal(text);
      expect(error.message, text).to.equal(UNKNOWN_FORMAT);
      expect(error.message).to.match(/^invalid reward tree: unknown document format \(expected /);
    }
    expect((await refusal('<html>maintenance</html>')).message).to.equal('invalid reward tree: not JSON (by byte 24)');
    const text = JSON.stringify([row(0), row(1)]);
    expect((await refusal(text.slice(0, 100))).message).to.equal('invalid reward tree: not JSON (by byte 100)');
  });

  it('readRewardTree (our format only, for tools) refuses a Merkl document', async () => {
    const reader = readRewardTree(chunksOf(JSON.stringify([row(0)])));
    const error = await reader.next().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(RewardTreeFormatError);
    expect((error as Error).message).to.match(/^invalid reward tree: Merkl's array of expanded leaves/);
  });
});
