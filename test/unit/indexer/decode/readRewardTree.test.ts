import { expect } from 'chai';
import { readRewardTree, type PositionedEntry } from '../../../../indexer/decode/readRewardTree.js';
import { RewardTreeFormatError } from '../../../../indexer/decode/parseRewardTree.js';

const ROOT = `0x${'AB'.repeat(32)}`;
const entry = (i: number, amount = String(1000 + i)) => ({
  recipient: `0x${i.toString(16).padStart(40, 'A')}`,
  token: `0x${'2'.repeat(40)}`,
  amount,
  breakdowns: [{ campaignId: '0x01', reason: 'holder', amount }],
});

/** The text cut in chunks of `size` bytes, as a network or a file delivers it. */
async function* chunksOf(text: string, size = 7): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function readAll(text: string, size?: number) {
  const reader = readRewardTree(chunksOf(text, size));
  const batches: PositionedEntry[][] = [];
  for (let next = await reader.next(); ; next = await reader.next()) {
    if (next.done) return { header: next.value, batches, entries: batches.flat() };
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

describe('indexer/decode/readRewardTree: tree documents read as they arrive', () => {
  it('yields every entry with its position, in batches per chunk, addresses lower-cased, the header last wherever it stands', async () => {
    const rewards = Array.from({ length: 50 }, (_, i) => entry(i));
    const text = JSON.stringify({ rewards, extra: { ignored: [1, 2, 3] }, chainId: 7, root: ROOT });
    const { header, batches, entries } = await readAll(text, 256);
    expect(header).to.deep.equal({ root: ROOT.toLowerCase(), chainId: 7 });
    expect(entries.map((e) => e.index)).to.deep.equal(rewards.map((_, i) => i));
    expect(entries[3]!.entry.recipient).to.equal(rewards[3]!.recipient.toLowerCase());
    expect(batches.length, 'more than one batch').to.be.greaterThan(1);
  });

  it('refuses the first bad entry naming its position and field', async () => {
    const rewards = [entry(0), entry(1, '-5'), entry(2)];
    const error = await refusal(JSON.stringify({ root: ROOT, chainId: 1, rewards }));
    expect(error.message).to.match(/^invalid reward tree: \/rewards\/1\/amount /);
    expect(error.details).to.deep.include({ field: '/rewards/1/amount', position: 1 });
    const missing = await refusal(
      JSON.stringify({ root: ROOT, chainId: 1, rewards: [entry(0), { recipient: entry(1).recipient }] }),
    );
    expect(missing.message).to.match(/\/rewards\/1\/token/);
  });

  it('refuses a truncated or corrupt document, saying how far it got', async () => {
    const text = JSON.stringify({ root: ROOT, chainId: 1, rewards: [entry(0), entry(1)] });
    expect((await refusal(text.slice(0, 120))).message).to.equal('invalid reward tree: not JSON (by byte 120)');
    expect((await refusal(text.replace('"chainId":1', '"chainId":1,,'))).message).to.match(/not JSON/);
    expect((await refusal(`${text}{"more":1}`)).message, 'trailing data after the tree').to.match(/not JSON/);
    expect((await refusal('<html>maintenance</html>')).message).to.match(/not JSON/);
  });

  it('refuses a document without rewards, root or chainId, or with them of the wrong type', async () => {
    expect((await refusal(JSON.stringify({ root: ROOT, chainId: 1 }))).message).to.match(
      /\/rewards must have required/,
    );
    expect((await refusal(JSON.stringify({ chainId: 1, rewards: [] }))).message).to.match(/\/root must have required/);
    expect((await refusal(JSON.stringify({ root: ROOT, rewards: [] }))).message).to.match(
      /\/chainId must have required/,
    );
    expect((await refusal(JSON.stringify({ root: '0x12', chainId: 1, rewards: [] }))).message).to.match(
      /\/root must match/,
    );
    expect((await refusal(JSON.stringify({ root: ROOT, chainId: 1, rewards: { a: entry(0) } }))).message).to.match(
      /\/rewards must be array/,
    );
  });

  it('reads an empty tree', async () => {
    const { header, entries } = await readAll(JSON.stringify({ root: ROOT, chainId: 1, rewards: [] }));
    expect(header.chainId).to.equal(1);
    expect(entries).to.deep.equal([]);
  });
});
