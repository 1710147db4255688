import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'chai';

/**
 * bench/ is its own package (Ponder, installed on first use), outside tsc and dependency-cruiser:
 * its relative imports into our tree are checked here, so a move in the tree cannot break the
 * peer benchmark unseen (one did: ponder.config.ts still imported the ABI from indexer/abis/).
 */
describe('architecture: the peer benchmark package imports files that exist', () => {
  it('resolves every relative import of the tracked bench/ sources', () => {
    const sources = execFileSync('git', ['ls-files', 'bench'], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => /\.(ts|mts|js|mjs)$/.test(f));
    expect(sources.length).to.be.greaterThan(0);
    const missing: string[] = [];
    for (const file of sources) {
      const text = readFileSync(file, 'utf8');
      for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
        const base = join(dirname(file), spec!);
        const candidates = [base, `${base}.ts`, base.replace(/\.js$/, '.ts'), join(base, 'index.ts')];
        if (!candidates.some((c) => existsSync(c))) missing.push(`${file}: ${spec}`);
      }
    }
    expect(missing).to.deep.equal([]);
  });
});
