import { expect } from 'chai';
import type { RewardTreeEntry } from '../../../indexer/decode/parseRewardTree.js';
import { verifyRewardTree } from '../../../indexer/transform/verifyRewardTree.js';
import { createLogger } from '../../../internal/logger.js';
import { loadKeccak, type Keccak } from '../../../internal/keccak.js';
import { createPgPool, type PgPool } from '../../../internal/pg.js';
import { ingestRewardTree } from '../../../jobs/ingestRewardTree.js';
import { resetDatabase } from '../../helpers/database.js';
import { TEST_DATABASE_URL } from '../../helpers/testConfig.js';

const CHAIN = 103;
const TOKEN = `0x${'22'.repeat(20)}`;
const CAMPAIGN = `0x${'c1'.repeat(32)}`;
const ROWS_OF = (chainId: number, root: string) => [chainId, root];

/** A tree of `n` entries, one breakdown each (upper-case addresses, as a publisher may write them). */
const entriesOf = (n: number, bump = 0): RewardTreeEntry[] =>
  Array.from({ length: n }, (_, i) => ({
    recipient: `0xA${(i + 1).toString(16).padStart(39, '0')}` as `0x${string}`,
    token: TOKEN as `0x${string}`,
    amount: String(1000 + i + bump),
    breakdowns: [{ campaignId: CAMPAIGN, reason: 'lp', amount: String(1000 + i + bump) }],
  }));

/** A document's text delivered in pieces of 64 KiB, as a source streams it. */
const documentOf = (text: string) => ({
  where: 'test',
  size: Buffer.byteLength(text),
  bytes: (async function* () {
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length; at += 65_536) yield bytes.subarray(at, at + 65_536);
  })(),
});

/**
 * jobs/ingestRewardTree.ts with the entries staged in worker threads (what a large document gets) and on
 * the job's thread: the same rows stored, and a refusal that names the first bad entry in document
 * order even when the text fails further on.
 */
describe('jobs/ingestRewardTree: entries staged in worker threads or on the job’s thread', function () {
  this.timeout(120_000);
  let db: PgPool;
  let keccak: Keccak;
  const logger = createLogger({ level: 'silent', name: 'test' });
  const ingest = async (root: string, text: string, stageInWorkers: boolean) => {
    await db.query("INSERT INTO reward_trees (chain_id, root, status) VALUES ($1, $2, 'pending')", [CHAIN, root]);
    return ingestRewardTree(
      { pg: db, logger },
      { chainId: CHAIN, root, document: documentOf(text), keccak, log: {}, stageInWorkers },
    );
  };
  const stored = async (root: string) =>
    (
      await db.query<{ row: string }>(
        `SELECT concat_ws('|', r.recipient, r.token, r.amount, b.campaign_id, b.reason, b.amount) AS row
         FROM rewards r JOIN reward_breakdowns b USING (chain_id, root, recipient, token)
         WHERE chain_id = $1 AND root = $2 ORDER BY 1`,
        ROWS_OF(CHAIN, root),
      )
    ).rows.map((r) => r.row);

  before(async function () {
    await resetDatabase(TEST_DATABASE_URL);
    db = createPgPool({ connectionString: TEST_DATABASE_URL, applicationName: 'test-ingest-tree' });
    keccak = await loadKeccak();
  });
  after(async () => db?.end());

  it('stores the same verified tree either way (20,000 entries, ~300 runs of entries over two threads)', async function () {
    const entries = entriesOf(20_000);
    const root = verifyRewardTree(
      keccak,
      { root: `0x${'0'.repeat(64)}`, chainId: CHAIN, rewards: entries },
      `0x${'0'.repeat(64)}`,
    ).computedRoot!;
    const text = JSON.stringify({ root, chainId: CHAIN, rewards: entries });
    const inThreads = await ingest(root, text, true);
    expect(inThreads.verdict).to.deep.include({ ok: true, computedRoot: root, leaves: 20_000 });
    const rows = await stored(root);
    expect(rows).to.have.length(20_000);
    expect(rows[0]).to.equal(`0xa${'1'.padStart(39, '0')}|${TOKEN}|1000|${CAMPAIGN}|lp|1000`);
    // The next tree (every amount raised) on the job's thread, then back: the rows follow each document.
    const next = entriesOf(20_000, 7);
    const nextRoot = verifyRewardTree(
      keccak,
      { root: `0x${'0'.repeat(64)}`, chainId: CHAIN, rewards: next },
      `0x${'0'.repeat(64)}`,
    ).computedRoot!;
    const here = await ingest(nextRoot, JSON.stringify({ root: nextRoot, chainId: CHAIN, rewards: next }), false);
    expect(here.verdict).to.deep.include({ ok: true, computedRoot: nextRoot, leaves: 20_000 });
    expect((await stored(nextRoot))[0]).to.equal(`0xa${'1'.padStart(39, '0')}|${TOKEN}|1007|${CAMPAIGN}|lp|1007`);
  });

  for (const stageInWorkers of [true, false])
    it(`refuses the first bad entry in document order although the text breaks further on (${stageInWorkers ? 'threads' : "job's thread"})`, async function () {
      const entries = entriesOf(3_000) as unknown as Record<string, unknown>[];
      entries[1_200] = { ...entries[1_200], amount: 5 };
      const text = JSON.stringify({ root: `0x${'ab'.repeat(32)}`, chainId: CHAIN, rewards: entries });
      // The text breaks a few KiB after the bad entry: in threads, its run is still being staged then.
      const broken = `${text.slice(0, text.indexOf('"amount":5') + 3_000)}}}}`;
      const root = `0x${(stageInWorkers ? 'e1' : 'e2').repeat(32)}`;
      const refusal = await ingest(root, broken, stageInWorkers).then(
        () => expect.fail('accepted'),
        (error: Error) => error.message,
      );
      expect(refusal).to.equal('invalid reward tree: /rewards/1200/amount must be string');
      expect(await stored(root)).to.deep.equal([]);
      // Only the text's fault: refused as not JSON, by the byte the reading stopped at.
      const cut = broken.slice(0, -3).replace('"amount":5', '"amount":"5"');
      const notJson = await ingest(`0x${(stageInWorkers ? 'f1' : 'f2').repeat(32)}`, `${cut}}}}`, stageInWorkers).then(
        () => expect.fail('accepted'),
        (error: Error) => error.message,
      );
      expect(notJson).to.match(/^invalid reward tree: not JSON \(by byte \d+\)$/);
    });
});
