import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RewardTreeFile } from '../../indexer/decode/parseRewardTree.js';

/**
 * Publishes a tree into a directory source: `<dir>/<chainId>/<root>.json` (root lower-case),
 * written to a temporary file first and renamed, so a reader never sees half a tree.
 * For the demo seeder and tests.
 * @returns the path written.
 */
export async function writeRewardTree(dir: string, tree: RewardTreeFile): Promise<string> {
  const chainDir = join(dir, String(tree.chainId));
  await mkdir(chainDir, { recursive: true });
  const file = join(chainDir, `${tree.root.toLowerCase()}.json`);
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, JSON.stringify(tree));
  await rename(temporary, file);
  return file;
}
