import { expect } from 'chai';
import { createRewardTreeChecker } from '../../../../indexer/transform/checkRewardTree.js';
import type { StagedEntries } from '../../../../indexer/store/stageEntryTexts.js';
import { stageHere, startStageWorkers } from '../../../../indexer/store/stageInWorkers.js';
import { stagedLeafLine } from '../../../../indexer/store/stageRewardTree.js';
import { loadKeccak, type Keccak } from '../../../../internal/keccak.js';

const TOKEN = `0x${'2'.repeat(40)}`;
const CAMPAIGN = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
/** Entry i of a test tree: checksummed-looking upper-case address, two breakdowns (the 7th unbalanced, the 11th repeating a pair). */
const entry = (i: number) => {
  const amount = 1000 + i;
  const first = Math.floor(amount / 3);
  return {
    recipient: `0xA${i.toString(16).padStart(39, '0')}`,
    token: TOKEN,
    amount: String(i % 13 === 5 ? 0 : amount),
    breakdowns: [
      { campaignId: CAMPAIGN(i % 3), reason: 'lp', amount: String(i % 13 === 5 ? 0 : first) },
      {
        campaignId: CAMPAIGN(i % 11 === 10 ? i % 3 : 7),
        reason: 'lp',
        amount: String(i % 13 === 5 ? 0 : amount - first + (i % 7 === 6 ? 1 : 0)),
      },
    ],
  };
};
const texts = (from: number, n: number) => Array.from({ length: n }, (_, k) => JSON.stringify(entry(from + k)));

describe('indexer/transform/stageInWorkers: a tree’s entries staged in worker threads', function () {
  let keccak: Keccak;
  before(async () => {
    keccak = await loadKeccak();
  });

  it('stages runs of entries in two threads exactly as on the calling thread, taken back in order', async function () {
    this.timeout(30_000);
    const runs = Array.from({ length: 12 }, (_, r) => ({ first: r * 50, texts: texts(r * 50, 50) }));
    const workers = startStageWorkers(2);
    try {
      const inThreads = await Promise.all(runs.map((r) => workers.stage(r.texts, r.first)));
      const here = await Promise.all(runs.map((r) => stageHere(keccak).stage(r.texts, r.first)));
      expect(inThreads).to.deep.equal(here);
      // The same as one checker adding the 600 entries one by one, and the rows as staging writes them.
      const merged = createRewardTreeChecker(keccak);
      const oneByOne = createRewardTreeChecker(keccak);
      let lines = '';
      for (const staged of inThreads as StagedEntries[]) {
        merged.addChecked(staged);
        lines += staged.lines;
      }
      const all = runs.flatMap((r) => r.texts.map((t) => JSON.parse(t) as ReturnType<typeof entry>));
      const normalized = all.map((e) => ({ ...e, recipient: e.recipient.toLowerCase() as `0x${string}` }));
      for (const e of normalized) oneByOne.add(e as Parameters<typeof oneByOne.add>[0]);
      expect(merged.entries).to.equal(600);
      expect(Buffer.from(merged.hashes().packed)).to.deep.equal(Buffer.from(oneByOne.hashes().packed));
      expect(merged.hashes().count, 'zero amounts have no leaf').to.equal(
        600 - normalized.filter((e) => e.amount === '0').length,
      );
      const verdict = (c: typeof merged) =>
        c.verdict({ onchainRoot: `0x${'0'.repeat(64)}`, layout: null, duplicates: [] }).errors;
      expect(verdict(merged)).to.deep.equal(verdict(oneByOne));
      expect(verdict(merged).join('\n'), 'both breakdown problems named').to.match(
        /do not sum[\s\S]*repeat a \(campaignId, reason\)/,
      );
      expect(lines).to.equal(normalized.map((e) => stagedLeafLine(e)).join(''));
    } finally {
      await workers.close();
    }
  });

  it('refuses a run at its first bad entry, by position and field, or as not JSON, across the thread', async function () {
    this.timeout(30_000);
    const workers = startStageWorkers(1);
    try {
      const run = texts(100, 5);
      run[3] = JSON.stringify({ ...entry(103), amount: 12 });
      expect(await workers.stage(run, 100)).to.deep.equal({
        refused: 'invalid',
        message: 'invalid reward tree: /rewards/103/amount must be string',
        details: { field: '/rewards/103/amount', position: 103 },
      });
      const broken = texts(0, 3);
      broken[1] = '{"recipient": 0x12}';
      expect(await workers.stage(broken, 0)).to.deep.equal({ refused: 'not-json' });
      // The thread goes on staging after a refusal.
      expect(await workers.stage(texts(0, 2), 0)).to.have.property('entries', 2);
    } finally {
      await workers.close();
    }
  });
});
