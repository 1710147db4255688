/**
 * `npm run bench:read-tree`: how fast the roots job reads a reward tree document, without the
 * network or PostgreSQL: a bench:rewards tree of BENCH_READ_TREE_LEAVES leaves (default 1,000,000)
 * is written to a temporary directory, then read from the file in 64 KiB chunks as the job does,
 * in stages: split and parsed (indexer/decode/readRewardTree.ts), then also checked and hashed
 * (createRewardTreeChecker), then also turned into COPY text (stagedLeaf). Prints MB/s and
 * entries/s per stage and the job's CPU time.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRewardTree } from '../../indexer/decode/readRewardTree.js';
import { stagedLeaf } from '../../indexer/store/stagedLeaf.js';
import { createRewardTreeChecker } from '../../indexer/transform/checkRewardTree.js';
import { loadKeccak } from '../../internal/keccak.js';
import { benchTreeRoot, writeBenchTree } from './benchRewardTree.js';

const leaves = Number(process.env['BENCH_READ_TREE_LEAVES'] ?? 1_000_000);
const keccak = await loadKeccak();
const spec = { chainId: 1, leaves, tokens: [`0x${'11'.repeat(20)}`, `0x${'22'.repeat(20)}`], changed: false };
const dir = await mkdtemp(join(tmpdir(), 'bench-read-tree-'));
try {
  const { file, bytes } = await writeBenchTree(keccak, dir, spec, benchTreeRoot(keccak, spec));
  console.log(`tree: ${leaves.toLocaleString('en')} leaves, ${(bytes / 2 ** 20).toFixed(0)} MiB`);
  for (const stage of ['parse', 'parse + check + hash', 'parse + check + hash + COPY text'] as const) {
    const checker = createRewardTreeChecker(keccak);
    let copyChars = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const reader = readRewardTree(createReadStream(file, { highWaterMark: 1 << 16 }));
    let entries = 0;
    for (let next = await reader.next(); !next.done; next = await reader.next())
      for (const { entry } of next.value) {
        entries += 1;
        if (stage === 'parse') continue;
        checker.add(entry);
        if (stage === 'parse + check + hash') continue;
        const { breakdowns, digest } = stagedLeaf(entry);
        copyChars +=
          entry.recipient.length + entry.token.length + entry.amount.length + digest.length + breakdowns.length;
      }
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    console.log(
      `${stage.padEnd(34)} ${seconds.toFixed(2)} s  ${(bytes / 2 ** 20 / seconds).toFixed(0)} MiB/s  ${Math.round(entries / seconds).toLocaleString('en')} entries/s  CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s${copyChars ? `  (${(copyChars / 2 ** 20).toFixed(0)} Mi chars of COPY text)` : ''}`,
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
